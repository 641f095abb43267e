// CUDA accumulate: every device thread adds a grid-stride slice into its own accumulator;
// the partials come back to the host and are merged there. Accumulators of reproducible
// sums are exact, so the merge order (and the launch shape) cannot change the result.
#pragma once

#include <vector>

#include <funcmesh/exec/cuda/backend.cuh>

namespace funcmesh::exec {

namespace cuda_detail {
template <class Acc, class Add>
__global__ void accumulate_kernel(Add add, index_t begin, index_t end, Acc* partials) {
  const index_t thread = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const index_t stride = static_cast<index_t>(blockDim.x) * gridDim.x;
  Acc local{};
  for (index_t i = begin + thread; i < end; i += stride) add(local, i);
  partials[thread] = local;
}

}  // namespace cuda_detail

template <class Acc, class Add>
Acc backend<executor_kind::cuda, nvcc_compiler>::accumulate(const executor& chosen, index_t begin,
                                                            index_t end, const Add& add,
                                                            const loop_shape&,
                                                            const loop_label& label) {
  detail::record_actual_threads(1);
  Acc total{};
  if (end <= begin) return total;
  // Enough threads to hide latency, few enough that the partials stay small.
  constexpr int threads = 128;
  const int blocks = cuda_detail::block_count(end - begin, threads) < 512
                         ? cuda_detail::block_count(end - begin, threads)
                         : 512;
  const std::size_t count = static_cast<std::size_t>(blocks) * threads;
  cuda_detail::device_guard on(chosen.device());
  auto stream = static_cast<cudaStream_t>(chosen.stream());
  cuda_detail::device_scratch scratch(count * sizeof(Acc), label);
  auto* partials = static_cast<Acc*>(scratch.get());
  cuda_detail::accumulate_kernel<Acc><<<blocks, threads, 0, stream>>>(add, begin, end, partials);
  cuda_detail::check(cudaGetLastError(), "launch", label);
  std::vector<Acc> host(count);
  cuda_detail::check(
      cudaMemcpyAsync(host.data(), partials, count * sizeof(Acc), cudaMemcpyDeviceToHost, stream),
      "copy of partial sums", label);
  cuda_detail::check(cudaStreamSynchronize(stream), "execution", label);
  for (const Acc& partial : host) total.merge(partial);
  return total;
}

}  // namespace funcmesh::exec
