// The CUDA backend: a templated grid-stride kernel that takes the loop body by value,
// Thrust/CUB for reductions. Launch and execution errors are thrown as device_error naming
// the kernel (errors left by earlier calls are cleared before each launch). Loops go on the
// rank's stream (cuda_support.hpp) and return once launched: the host waits only where it
// reads (a reduction's result here; copies, halo sends, exec::synchronize elsewhere), so a
// kernel's fault surfaces at the next synchronisation, naming the last loop launched.
#pragma once

#include <string>
#include <string_view>

#include <cuda_runtime.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>

#include <funcmesh/exec/backend.hpp>
#include <funcmesh/exec/cuda/cuda_support.hpp>
#include <funcmesh/exec/thread_policy.hpp>
#include <funcmesh/memory/memory_error.hpp>
#include <funcmesh/profile/device_activity.hpp>

namespace funcmesh::exec {

namespace cuda_detail {
template <class Body>
__global__ void for_each_kernel(Body body, index_t begin, index_t end) {
  const index_t stride = static_cast<index_t>(blockDim.x) * gridDim.x;
  for (index_t i = begin + static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < end;
       i += stride) {
    body(i);
  }
}

template <class Map>
struct index_map {
  Map map;
  __host__ __device__ auto operator()(index_t i) const { return map(i); }
};
}  // namespace cuda_detail

template <>
struct backend<executor_kind::cuda, nvcc_compiler> {
  static constexpr int threads_per_block = 256;

  template <class Body>
  static void for_each(const executor& chosen, index_t begin, index_t end, const Body& body,
                       const loop_shape&, const loop_label& label) {
    detail::record_actual_threads(1);
    if (end <= begin) return;
    cuda_detail::device_guard on(chosen.device());
    const cudaStream_t stream = cuda_detail::stream_of(chosen);
    cuda_detail::discard_stale_error();
    cuda_detail::for_each_kernel<<<cuda_detail::block_count(end - begin, threads_per_block),
                                   threads_per_block, 0, stream>>>(body, begin, end);
    cuda_detail::check(cudaGetLastError(), "launch", label);
    // FUNCMESH's before/after switch (device_activity.hpp): wait for every kernel.
    if (funcmesh::detail::synchronize_every_launch()) cuda_detail::synchronize(stream, label);
  }

  template <class T, class Map, class Combine>
  static T transform_reduce(const executor& chosen, index_t begin, index_t end, T init,
                            const Map& map, const Combine& combine, const loop_shape&,
                            const loop_label& label) {
    detail::record_actual_threads(1);
    if (end <= begin) return init;
    cuda_detail::device_guard on(chosen.device());
    const cudaStream_t stream = cuda_detail::stream_of(chosen);
    T result = init;
    // Thrust reads the last error after its launches too.
    cuda_detail::discard_stale_error();
    try {
      result = thrust::transform_reduce(
          thrust::cuda::par.on(stream), thrust::counting_iterator<index_t>(begin),
          thrust::counting_iterator<index_t>(end), cuda_detail::index_map<Map>{map}, init, combine);
    } catch (const std::exception& failure) {
      throw device_error("funcmesh: CUDA reduction '" + label.text() +
                         "' failed: " + failure.what());
    }
    return result;  // thrust waited for the value it returned
  }

  template <class Acc, class Add>
  static Acc accumulate(const executor& chosen, index_t begin, index_t end, const Add& add,
                        const loop_shape&, const loop_label& label);
};

}  // namespace funcmesh::exec

#include <funcmesh/exec/cuda/accumulate.cuh>
