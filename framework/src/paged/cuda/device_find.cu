// find() on a CUDA device: a grid-stride kernel flags the matching element slots of a
// chunk, thrust compacts their indices, and only those come back to the host. Chunks of a
// million slots bound the device scratch (8 MiB) and stop the scan once `cap` are found.
#include <algorithm>
#include <string>

#include <thrust/copy.h>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/system_error.h>

#include <funcmesh/core/error.hpp>
#include <funcmesh/exec/cuda/cuda_support.hpp>
#include <funcmesh/memory/memory_error.hpp>
#include <funcmesh/paged/detail/device_find.hpp>

namespace funcmesh::detail {

namespace {

// Whether slot k's field equals the value (both in device memory), byte by byte: any
// offset and width, as the host scan's memcmp.
struct field_matches {
  const std::byte* memory;
  std::size_t element_bytes;
  std::size_t offset;
  const std::byte* value;
  std::size_t value_bytes;

  __device__ bool operator()(index_t slot) const {
    const std::byte* field = memory + static_cast<std::size_t>(slot) * element_bytes + offset;
    for (std::size_t b = 0; b < value_bytes; ++b) {
      if (field[b] != value[b]) return false;
    }
    return true;
  }
};

// Device memory freed on every path (a failed copy_if throws).
struct device_block {
  void* address = nullptr;
  device_block(std::size_t bytes, const exec::loop_label& label) {
    exec::cuda_detail::check(cudaMalloc(&address, std::max<std::size_t>(bytes, 1)), "allocation",
                             label);
  }
  ~device_block() { static_cast<void>(cudaFree(address)); }
  device_block(const device_block&) = delete;
  device_block& operator=(const device_block&) = delete;
};

constexpr index_t chunk_slots = index_t{1} << 20;

}  // namespace

std::vector<index_t> cuda_find_slots(int device, const std::byte* memory, index_t slots,
                                     std::size_t element_bytes, const find_request& request,
                                     index_t cap) {
  std::vector<index_t> found;
  if (slots <= 0 || cap <= 0) return found;
  const exec::loop_label label{"paged_array::find"};
  exec::cuda_detail::device_guard guard(device);
  exec::cuda_detail::discard_stale_error();
  const device_block value(request.value_bytes, label);
  exec::cuda_detail::check(
      cudaMemcpy(value.address, request.value, request.value_bytes, cudaMemcpyHostToDevice),
      "copy of the value", label);
  const index_t chunk = std::min(slots, chunk_slots);
  const device_block matches(static_cast<std::size_t>(chunk) * sizeof(index_t), label);
  const thrust::device_ptr<index_t> out(static_cast<index_t*>(matches.address));
  const field_matches test{memory, element_bytes, request.offset,
                           static_cast<const std::byte*>(value.address), request.value_bytes};
  try {
    for (index_t first = 0; first < slots && static_cast<index_t>(found.size()) < cap;
         first += chunk) {
      const index_t count = std::min(chunk, slots - first);
      const auto end =
          thrust::copy_if(thrust::device, thrust::counting_iterator<index_t>(first),
                          thrust::counting_iterator<index_t>(first + count), out, test);
      const auto hits = static_cast<index_t>(end - out);
      const index_t take = std::min(hits, cap - static_cast<index_t>(found.size()));
      const std::size_t before = found.size();
      found.resize(before + static_cast<std::size_t>(take));
      exec::cuda_detail::check(
          cudaMemcpy(found.data() + before, matches.address,
                     static_cast<std::size_t>(take) * sizeof(index_t), cudaMemcpyDeviceToHost),
          "copy of the matches", label);
    }
  } catch (const thrust::system_error& e) {
    throw device_error("funcmesh::paged_array::find on CUDA device " + std::to_string(device) +
                       ": " + e.what());
  }
  return found;
}

}  // namespace funcmesh::detail
