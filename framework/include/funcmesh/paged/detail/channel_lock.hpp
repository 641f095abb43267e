// channel_lock: the lock of one paged-array channel: one atomic operation each way when
// nobody waits (a hit's whole locking cost); after a short spin a waiter sleeps on the
// futex (std::atomic::wait), so waiting out another thread's page transfer burns no core.
#pragma once

#include <atomic>

namespace funcmesh::detail {

class channel_lock {
 public:
  void lock() {
    int expected = free;
    if (!state_.compare_exchange_strong(expected, locked, std::memory_order_acquire))
      lock_contended();
  }
  bool try_lock() {
    int expected = free;
    return state_.compare_exchange_strong(expected, locked, std::memory_order_acquire);
  }
  void unlock() {
    if (state_.exchange(free, std::memory_order_release) == sleeping) state_.notify_one();
  }

 private:
  static constexpr int free = 0, locked = 1, sleeping = 2;  // sleeping: locked, waiters
  void lock_contended();
  std::atomic<int> state_{free};
};

}  // namespace funcmesh::detail
