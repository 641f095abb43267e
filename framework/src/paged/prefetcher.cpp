// The background page loader of a paged array (see detail/prefetcher.hpp).
#include <funcmesh/paged/detail/prefetcher.hpp>

#include <funcmesh/paged/detail/paged_core.hpp>

namespace funcmesh::detail {

prefetcher::prefetcher(paged_core& core) : core_(core), thread_([this] { run(); }) {}

prefetcher::~prefetcher() {
  {
    std::lock_guard guard(mutex_);
    stop_ = true;
    queue_.clear();
  }
  wake_.notify_all();
  thread_.join();
}

void prefetcher::request(index_t page, task what) {
  {
    std::lock_guard guard(mutex_);
    if (queue_.size() >= max_queued) return;  // a hint: dropping it changes no value
    queue_.push_back({page, what});
  }
  wake_.notify_one();
}

void prefetcher::wait() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [this] { return queue_.empty() && !busy_; });
}

void prefetcher::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stop_ || !queue_.empty(); });
    if (stop_) break;
    const entry next = queue_.front();
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    if (next.what == task::load) {  // neither throws
      core_.load_in_background(next.page);
    } else {
      core_.write_back_in_background(next.page);
    }
    lock.lock();
    busy_ = false;
    if (queue_.empty()) idle_.notify_all();
  }
  busy_ = false;
  idle_.notify_all();
}

}  // namespace funcmesh::detail
