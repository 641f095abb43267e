// Builds without CUDA: no space_store can hold a CUDA space, so this is never reached
// through the public API; it exists so that the library links, and fails loudly.
#include <funcmesh/core/error.hpp>
#include <funcmesh/memory/memory_error.hpp>
#include <funcmesh/paged/detail/device_find.hpp>

namespace funcmesh::detail {

std::vector<index_t> cuda_find_slots(int, const std::byte*, index_t, std::size_t,
                                     const find_request&, index_t) {
  throw device_error("funcmesh::paged_array::find: this funcmesh is built without CUDA");
}

}  // namespace funcmesh::detail
