// The aligned, optionally pinned buffer of paged_array::map (see detail/mapped_buffer.hpp).
#include <funcmesh/paged/detail/mapped_buffer.hpp>

#include <cstdlib>
#include <cstring>
#include <limits>

#include <funcmesh/core/error.hpp>
#include <funcmesh/memory/memory_error.hpp>
#include <funcmesh/memory/memory_space.hpp>

namespace funcmesh::detail {

// The host memory manager's page-locking (host_memory_manager.cpp): page-aligned memory
// (a multiple of 4096 on every Linux), mlock'ed over the bytes rounded up to whole pages,
// allocation_error with errno and RLIMIT_MEMLOCK when it fails.
void* pin_host_pages(std::size_t bytes);
void unpin_host_pages(void* pointer, std::size_t bytes) noexcept;

mapped_buffer::mapped_buffer(std::size_t bytes, bool pinned, bool zeroed)
    : bytes_(bytes), pinned_(pinned) {
  if (bytes == 0) return;
  if (pinned) {
    pointer_ = pin_host_pages(bytes);
  } else {
    if (bytes > std::numeric_limits<std::size_t>::max() - alignment)
      throw allocation_error(bytes, host_space, "larger than the address space (mapped range)");
    const std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
    pointer_ = std::aligned_alloc(alignment, rounded);
    if (pointer_ == nullptr)
      throw allocation_error(bytes, host_space, "out of host memory (mapped range)");
  }
  if (zeroed) std::memset(pointer_, 0, bytes);
}

mapped_buffer::~mapped_buffer() {
  if (pointer_ == nullptr) return;
  if (pinned_)
    unpin_host_pages(pointer_, bytes_);
  else
    std::free(pointer_);
}

}  // namespace funcmesh::detail
