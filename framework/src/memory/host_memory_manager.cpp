// The host's memory manager: 64-byte aligned allocations (a cache line, and the widest
// SIMD load), and page-locked memory through mlock when no device provides pinning.
#include <funcmesh/core/error.hpp>
#include <funcmesh/memory/memory_error.hpp>
#include <funcmesh/memory/memory_manager.hpp>

#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <new>
#include <string>

namespace funcmesh::detail {

namespace {

constexpr std::size_t host_alignment = 64;

class host_memory_manager final : public memory_manager {
 public:
  std::string_view name() const noexcept override { return "host"; }
  int device_count() const override { return 1; }

  void* allocate(int /*device*/, std::size_t bytes) override {
    if (bytes == 0) return nullptr;
    void* pointer = ::operator new (bytes, std::align_val_t{host_alignment}, std::nothrow);
    if (pointer == nullptr) throw allocation_error(bytes, host_space, "out of host memory");
    return pointer;
  }
  void deallocate(int /*device*/, void* pointer) noexcept override {
    ::operator delete (pointer, std::align_val_t{host_alignment});
  }
  void copy_to_host(int, void* destination, const void* source, std::size_t bytes) override {
    std::memcpy(destination, source, bytes);
  }
  void copy_from_host(int, void* destination, const void* source, std::size_t bytes) override {
    std::memcpy(destination, source, bytes);
  }
  void copy_between(int, void* destination, int, const void* source, std::size_t bytes) override {
    std::memcpy(destination, source, bytes);
  }
  // MemAvailable (what the kernel can hand out without swapping), which counts the page
  // cache it may drop; free pages alone would call a machine with a warm cache "full".
  std::size_t free_bytes(int /*device*/) const override {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::size_t kib = 0;
    while (meminfo >> key >> kib) {
      if (key == "MemAvailable:") return kib * 1024;
      meminfo.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
    }
    const long pages = sysconf(_SC_AVPHYS_PAGES);
    const long page = sysconf(_SC_PAGESIZE);
    if (pages < 0 || page < 0) return unknown_free_bytes;
    return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page);
  }
};

std::size_t page_rounded(std::size_t bytes) {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return (bytes + page - 1) / page * page;
}

std::string memlock_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_MEMLOCK, &limit) != 0) return "unknown";
  if (limit.rlim_cur == RLIM_INFINITY) return "unlimited";
  return std::to_string(limit.rlim_cur) + " bytes";
}

}  // namespace

std::unique_ptr<memory_manager> make_host_memory_manager() {
  return std::make_unique<host_memory_manager>();
}

void* pin_host_pages(std::size_t bytes) {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  if (bytes > std::numeric_limits<std::size_t>::max() - page)
    throw allocation_error(bytes, host_space, "larger than the address space (pinned)");
  const std::size_t rounded = page_rounded(bytes);
  void* pointer = std::aligned_alloc(page, rounded);
  if (pointer == nullptr) throw allocation_error(bytes, host_space, "out of host memory (pinned)");
  if (mlock(pointer, rounded) != 0) {
    const int code = errno;
    std::free(pointer);
    throw allocation_error(bytes, host_space,
                           std::string("cannot pin (page-lock) it: mlock: ") + std::strerror(code) +
                               "; RLIMIT_MEMLOCK is " + memlock_limit() +
                               " (raise it with ulimit -l, or do not request pinned memory)");
  }
  return pointer;
}

void unpin_host_pages(void* pointer, std::size_t bytes) noexcept {
  if (pointer == nullptr) return;
  munlock(pointer, page_rounded(bytes));
  std::free(pointer);
}

}  // namespace funcmesh::detail
