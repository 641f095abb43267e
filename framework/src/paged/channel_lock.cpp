// The contended path of a channel's lock (see detail/channel_lock.hpp): Drepper's
// three-state futex mutex, after a short spin for locks held only for a hit.
#include <funcmesh/paged/detail/channel_lock.hpp>

#include <thread>

namespace funcmesh::detail {

void channel_lock::lock_contended() {
  for (int spin = 0; spin < 100; ++spin) {
    int expected = free;
    if (state_.load(std::memory_order_relaxed) == free &&
        state_.compare_exchange_weak(expected, locked, std::memory_order_acquire))
      return;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  // From here the lock is taken as `sleeping`, so its unlock wakes the next waiter.
  while (state_.exchange(sleeping, std::memory_order_acquire) != free)
    state_.wait(sleeping, std::memory_order_relaxed);
}

}  // namespace funcmesh::detail
