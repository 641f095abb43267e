// The set-up's large arrays on transparent huge pages: one 2 MiB-aligned anonymous mapping
// each (over-mapped by 2 MiB, the ends trimmed), advised MADV_HUGEPAGE. Where the kernel
// gives no huge pages (THP off, or none free) they are ordinary pages, as from malloc.
#include <funcmesh/comm/detail/raw_vector.hpp>

#include <sys/mman.h>

#include <atomic>
#include <cstdint>

namespace funcmesh::setup_detail {

namespace {

constexpr std::size_t huge_page = std::size_t{2} << 20;
// Below this an array is a small part of the set-up's page faults, and rounding it up to
// whole huge pages would cost memory.
std::size_t threshold = std::size_t{8} << 20;
std::atomic<std::size_t> mapped_count{0};

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

}  // namespace

void* allocate_pages(std::size_t bytes) {
  const std::size_t length = round_up(bytes, huge_page);
  if (length < bytes || length + huge_page < length) throw std::bad_alloc();
  void* const mapped = ::mmap(nullptr, length + huge_page, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  const auto first = reinterpret_cast<std::uintptr_t>(mapped);
  const std::uintptr_t aligned = round_up(first, huge_page);
  if (aligned > first) ::munmap(mapped, aligned - first);
  const std::uintptr_t end = first + length + huge_page;
  if (end > aligned + length)
    ::munmap(reinterpret_cast<void*>(aligned + length), end - aligned - length);
  // Advice only: where THP is off the pages are ordinary ones.
  (void)::madvise(reinterpret_cast<void*>(aligned), length, MADV_HUGEPAGE);
  mapped_count.fetch_add(1, std::memory_order_relaxed);
  return reinterpret_cast<void*>(aligned);
}

void deallocate_pages(void* at, std::size_t bytes) {
  if (at != nullptr) ::munmap(at, round_up(bytes, huge_page));
}

std::size_t large_page_threshold() { return threshold; }

std::size_t large_page_allocations() { return mapped_count.load(std::memory_order_relaxed); }

std::size_t set_large_page_threshold(std::size_t bytes) {
  const std::size_t before = threshold;
  threshold = bytes;
  return before;
}

}  // namespace funcmesh::setup_detail
