// The executor's stream (cuda_support.hpp) and the CUDA half of exec::synchronize.
#include <funcmesh/exec/cuda/cuda_support.hpp>
#include <funcmesh/exec/executor.hpp>

#include "../device_stream.hpp"

namespace funcmesh::exec::cuda_detail {

cudaStream_t stream_of(const executor& on) {
  return on.stream() != nullptr ? static_cast<cudaStream_t>(on.stream()) : rank_stream(on.device());
}

}  // namespace funcmesh::exec::cuda_detail

namespace funcmesh::detail {

void synchronize_cuda_stream(const executor& on, const exec::loop_label& why) {
  const exec::cuda_detail::device_guard guard(on.device());
  exec::cuda_detail::synchronize(exec::cuda_detail::stream_of(on), why);
}

}  // namespace funcmesh::detail
