// Builds without CUDA: the cuda executor cannot be created, so these are never reached
// through the public API; they exist so that the library links, and fail loudly.
#include <cstddef>

#include <funcmesh/core/error.hpp>
#include <funcmesh/exec/executor.hpp>
#include <funcmesh/memory/memory_error.hpp>

namespace funcmesh::detail {

void cuda_gather_bytes(const executor&, const std::byte*, const index_t*, index_t, std::byte*,
                       std::size_t) {
  throw device_error("funcmesh::gather: this funcmesh is built without CUDA");
}

void cuda_scatter_bytes(const executor&, const std::byte*, const index_t*, index_t, std::byte*,
                        std::size_t) {
  throw device_error("funcmesh::scatter: this funcmesh is built without CUDA");
}

}  // namespace funcmesh::detail
