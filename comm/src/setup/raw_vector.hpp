// Private to the parallel set-up: std::vector without the zeroing of resize(), for arrays
// that are written in full right after they are sized.
#pragma once

#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace funcmesh::setup_detail {

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
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
template <class T>
using raw_vector = std::vector<T, uninitialized_allocator<T>>;

}  // namespace funcmesh::setup_detail
