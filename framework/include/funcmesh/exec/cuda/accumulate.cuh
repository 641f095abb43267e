// CUDA accumulate: every device thread adds a grid-stride slice into its own accumulator,
// each block merges its threads' accumulators in shared memory, one more block merges the
// block partials, and only the final accumulator comes back to the host. Accumulators of
// reproducible sums are exact, so the merge tree (and the launch shape) cannot change the
// result.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>

#include <funcmesh/exec/cuda/backend.cuh>

namespace funcmesh::exec {

namespace cuda_detail {

// Dynamic shared memory up to this size needs no opt-in, on every architecture.
inline constexpr std::size_t accumulate_shared_budget = 48 * 1024;

// Threads per block of the accumulate kernels: the most, a power of two up to 256, whose
// accumulators fit in the shared budget (64 for exact_sum's 552 bytes: 34.5 KB). An
// accumulator too large for even two gets one thread per block, which needs no shared
// memory at all.
template <class Acc>
constexpr int accumulate_threads() {
  int threads = 256;
  while (threads > 1 && static_cast<std::size_t>(threads) * sizeof(Acc) > accumulate_shared_budget)
    threads /= 2;
  return threads;
}

template <class Acc>
constexpr std::size_t accumulate_shared_bytes() {
  constexpr int threads = accumulate_threads<Acc>();
  return threads > 1 ? static_cast<std::size_t>(threads) * sizeof(Acc) : 0;
}

// One name and one element type for every instantiation: nvcc rejects an extern
// __shared__ array redeclared with another type. Dynamic shared memory starts aligned to
// at least 16 bytes.
inline constexpr std::size_t accumulate_shared_alignment = 16;

// Merges the block's accumulators (`local`, one per thread) into *out, written by thread
// 0. Every thread of the block must call it. Acc's default constructor need not be
// trivial, so the slots are raw storage into which each thread copies its accumulator.
template <class Acc, int Threads>
__device__ void merge_block(const Acc& local, Acc* out) {
  if constexpr (Threads == 1) {
    *out = local;
  } else {
    extern __shared__ __align__(16) unsigned char funcmesh_accumulate_shared[];
    static_assert(accumulate_shared_alignment == 16, "the alignment declared above");
    Acc* slots = reinterpret_cast<Acc*>(funcmesh_accumulate_shared);
    ::new (static_cast<void*>(slots + threadIdx.x)) Acc(local);
    __syncthreads();
    for (int half = Threads / 2; half > 0; half /= 2) {
      if (static_cast<int>(threadIdx.x) < half) slots[threadIdx.x].merge(slots[threadIdx.x + half]);
      __syncthreads();
    }
    if (threadIdx.x == 0) *out = slots[0];
  }
}

// Pass 1: a grid-stride slice per thread, one partial per block.
template <class Acc, int Threads, class Add>
__global__ void __launch_bounds__(Threads)
    accumulate_blocks_kernel(Add add, index_t begin, index_t end, Acc* block_partials) {
  const index_t stride = static_cast<index_t>(Threads) * gridDim.x;
  Acc local{};
  for (index_t i = begin + static_cast<index_t>(blockIdx.x) * Threads + threadIdx.x; i < end;
       i += stride) {
    add(local, i);
  }
  merge_block<Acc, Threads>(local, block_partials + blockIdx.x);
}

// Pass 2, one block: the block partials into one accumulator.
template <class Acc, int Threads>
__global__ void __launch_bounds__(Threads)
    merge_partials_kernel(const Acc* partials, int count, Acc* result) {
  Acc local{};
  for (int k = static_cast<int>(threadIdx.x); k < count; k += Threads) local.merge(partials[k]);
  merge_block<Acc, Threads>(local, result);
}

}  // namespace cuda_detail

template <class Acc, class Add>
Acc backend<executor_kind::cuda, nvcc_compiler>::accumulate(const executor& chosen, index_t begin,
                                                            index_t end, const Add& add,
                                                            const loop_shape&,
                                                            const loop_label& label) {
  static_assert(std::is_trivially_copyable_v<Acc>,
                "funcmesh: a CUDA accumulator is copied bytewise between device and host");
  static_assert(alignof(Acc) <= cuda_detail::accumulate_shared_alignment,
                "funcmesh: a CUDA accumulator must not need more than 16-byte alignment");
  detail::record_actual_threads(1);
  Acc total{};
  if (end <= begin) return total;
  constexpr int threads = cuda_detail::accumulate_threads<Acc>();
  constexpr std::size_t shared = cuda_detail::accumulate_shared_bytes<Acc>();
  const auto blocks_kernel = cuda_detail::accumulate_blocks_kernel<Acc, threads, Add>;
  const auto merge_kernel = cuda_detail::merge_partials_kernel<Acc, threads>;

  cuda_detail::device_guard on(chosen.device());
  const cudaStream_t stream = cuda_detail::stream_of(chosen);
  // As many blocks as the device holds at once (for exact_sum, shared memory and registers
  // allow 6 per multiprocessor: 792 on an H200): more would only add block partials, fewer
  // would leave multiprocessors idle. The cap bounds what pass 2 merges on any device.
  constexpr int max_blocks = 1024;
  int resident = 0;
  cuda_detail::check(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, blocks_kernel, threads, shared),
      "occupancy query", label);
  const int wanted =
      (resident > 0 ? resident : 1) * cuda_detail::multiprocessor_count(chosen.device(), label);
  const int blocks = std::min({cuda_detail::block_count(end - begin, threads), wanted, max_blocks});

  // Device memory: the block partials, then the result (a single block writes it at once).
  const std::size_t partial_bytes = blocks > 1 ? static_cast<std::size_t>(blocks) * sizeof(Acc) : 0;
  cuda_detail::reduction_scratch scratch(chosen.device(), partial_bytes + sizeof(Acc), sizeof(Acc),
                                         label);
  auto* partials = static_cast<Acc*>(scratch.device_memory());
  Acc* result =
      reinterpret_cast<Acc*>(static_cast<std::byte*>(scratch.device_memory()) + partial_bytes);

  cuda_detail::discard_stale_error();
  blocks_kernel<<<blocks, threads, shared, stream>>>(add, begin, end,
                                                     blocks > 1 ? partials : result);
  cuda_detail::check(cudaGetLastError(), "launch", label);
  if (blocks > 1) {
    merge_kernel<<<1, threads, shared, stream>>>(partials, blocks, result);
    cuda_detail::check(cudaGetLastError(), "launch of the merge of block partials", label);
  }
  cuda_detail::check(cudaMemcpyAsync(scratch.pinned_host_memory(), result, sizeof(Acc),
                                     cudaMemcpyDeviceToHost, stream),
                     "copy of the result", label);
  cuda_detail::synchronize(stream, label);
  std::memcpy(static_cast<void*>(&total), scratch.pinned_host_memory(), sizeof(Acc));
  return total;
}

}  // namespace funcmesh::exec
