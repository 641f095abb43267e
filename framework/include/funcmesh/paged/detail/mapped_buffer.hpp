// mapped_buffer: the host buffer behind paged_array::map: 4096-byte aligned (aligned SIMD
// loads, DMA), optionally page-locked with mlock over its size in BYTES and the failure
// reported (the seed's original passed an element count and never checked the result).
#pragma once

#include <cstddef>

namespace funcmesh::detail {

class mapped_buffer {
 public:
  static constexpr std::size_t alignment = 4096;

  // Throws allocation_error naming the bytes when memory cannot be had or pinned
  // (RLIMIT_MEMLOCK in the message). `zeroed` fills it with zero bytes.
  mapped_buffer(std::size_t bytes, bool pinned, bool zeroed);
  ~mapped_buffer();
  mapped_buffer(const mapped_buffer&) = delete;
  mapped_buffer& operator=(const mapped_buffer&) = delete;

  void* data() const { return pointer_; }
  std::size_t size_bytes() const { return bytes_; }
  bool pinned() const { return pinned_; }

 private:
  void* pointer_ = nullptr;
  std::size_t bytes_ = 0;
  bool pinned_ = false;
};

}  // namespace funcmesh::detail
