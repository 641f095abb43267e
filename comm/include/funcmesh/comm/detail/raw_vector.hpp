// Internal (the parallel set-up's, restart's): std::vector without the zeroing of resize(), for
// arrays that are written in full right after they are sized, large ones on transparent huge pages.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace funcmesh::setup_detail {

// Large arrays (at least large_page_threshold() bytes) as anonymous mappings aligned to
// 2 MiB and advised MADV_HUGEPAGE: the set-up touches hundreds of MiB once each, and on a
// virtual machine a 4 KiB page fault costs microseconds (half the migration's time was page
// faults). Smaller ones come from operator new. Throws std::bad_alloc.
void* allocate_pages(std::size_t bytes);
void deallocate_pages(void* at, std::size_t bytes);
std::size_t large_page_threshold();
// For tests (detail::set_large_page_threshold): only between set-ups, since an array is
// given back by the path it came from. Returns the previous threshold.
std::size_t set_large_page_threshold(std::size_t bytes);
// How many arrays were mapped so far.
std::size_t large_page_allocations();

// An allocator whose resize() leaves trivial values uninitialized: the set-up's arrays are
// written in full right after they are sized, and zeroing hundreds of MiB first cost a
// fifth of its time.
template <class T>
struct uninitialized_allocator : std::allocator<T> {
  using std::allocator<T>::allocator;
  template <class U>
  struct rebind {
    using other = uninitialized_allocator<U>;
  };
  T* allocate(std::size_t n) {
    static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
    if (n > std::size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= large_page_threshold() && bytes > 0) {
      return static_cast<T*>(allocate_pages(bytes));
    }
    return std::allocator<T>::allocate(n);
  }
  void deallocate(T* at, std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= large_page_threshold() && bytes > 0) {
      deallocate_pages(at, bytes);
    } else {
      std::allocator<T>::deallocate(at, n);
    }
  }
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
template <class T, class U>
bool operator==(const uninitialized_allocator<T>&, const uninitialized_allocator<U>&) {
  return true;
}
template <class T>
using raw_vector = std::vector<T, uninitialized_allocator<T>>;

}  // namespace funcmesh::setup_detail
