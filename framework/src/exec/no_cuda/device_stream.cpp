// Builds without CUDA: no cuda executor can be made, so nothing waits for a CUDA stream.
#include "../device_stream.hpp"

#include <funcmesh/memory/memory_error.hpp>

namespace funcmesh::detail {

void synchronize_cuda_stream(const executor&, const exec::loop_label& why) {
  throw device_error("funcmesh: " + why.text() + ": this funcmesh is built without CUDA");
}

}  // namespace funcmesh::detail
