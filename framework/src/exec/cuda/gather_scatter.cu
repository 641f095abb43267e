// The CUDA kernels of gather and scatter, compiled once into the library.
#include <cstddef>

#include <funcmesh/exec/cuda/cuda_support.hpp>
#include <funcmesh/exec/executor.hpp>
#include <funcmesh/profile/device_activity.hpp>

namespace funcmesh::detail {

namespace {
template <class Word, bool Gather>
__global__ void move_kernel(const std::byte* from, std::byte* to, const index_t* list,
                            index_t count, std::size_t words_per_element) {
  const auto* source = reinterpret_cast<const Word*>(from);
  auto* destination = reinterpret_cast<Word*>(to);
  const index_t total = count * static_cast<index_t>(words_per_element);
  const index_t stride = static_cast<index_t>(blockDim.x) * gridDim.x;
  for (index_t w = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; w < total;
       w += stride) {
    const index_t k = w / static_cast<index_t>(words_per_element);
    const index_t part = w % static_cast<index_t>(words_per_element);
    const index_t spread = list[k] * static_cast<index_t>(words_per_element) + part;
    if constexpr (Gather) {
      destination[w] = source[spread];
    } else {
      destination[spread] = source[w];
    }
  }
}

template <bool Gather>
void launch(const executor& on, const std::byte* from, std::byte* to, const index_t* list,
            index_t count, std::size_t element_size, const exec::loop_label& label) {
  if (count == 0) return;
  exec::cuda_detail::device_guard guard(on.device());
  const cudaStream_t stream = exec::cuda_detail::stream_of(on);
  constexpr int threads = 256;
  exec::cuda_detail::discard_stale_error();  // so the check below reads this launch's error
  // The widest word that divides the element keeps the accesses aligned and few.
  if (element_size % 8 == 0) {
    const std::size_t words = element_size / 8;
    move_kernel<unsigned long long, Gather>
        <<<exec::cuda_detail::block_count(count * static_cast<index_t>(words), threads), threads, 0,
           stream>>>(from, to, list, count, words);
  } else if (element_size % 4 == 0) {
    const std::size_t words = element_size / 4;
    move_kernel<unsigned int, Gather>
        <<<exec::cuda_detail::block_count(count * static_cast<index_t>(words), threads), threads, 0,
           stream>>>(from, to, list, count, words);
  } else {
    move_kernel<unsigned char, Gather>
        <<<exec::cuda_detail::block_count(count * static_cast<index_t>(element_size), threads),
           threads, 0, stream>>>(from, to, list, count, element_size);
  }
  exec::cuda_detail::check(cudaGetLastError(), "launch", label);
  // No wait: a halo send waits before MPI takes the buffer (the copy to the host, or
  // exec::synchronize where MPI takes device memory); an unpack is followed by loops on the
  // same stream.
  if (detail::synchronize_every_launch()) exec::cuda_detail::synchronize(stream, label);
}
}  // namespace

void cuda_gather_bytes(const executor& on, const std::byte* values, const index_t* indices,
                       index_t count, std::byte* packed, std::size_t element_size) {
  launch<true>(on, values, packed, indices, count, element_size, exec::loop_label{"gather"});
}

void cuda_scatter_bytes(const executor& on, const std::byte* packed, const index_t* indices,
                        index_t count, std::byte* values, std::size_t element_size) {
  launch<false>(on, packed, values, indices, count, element_size, exec::loop_label{"scatter"});
}

}  // namespace funcmesh::detail
