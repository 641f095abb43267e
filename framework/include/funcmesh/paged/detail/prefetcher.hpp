// prefetcher: one background thread per paged array, started by the first prefetch() or
// write_behind(), loading queued pages into their caches or writing dirty cached pages
// back. Hints only: a full queue drops requests, a page that fails to load is loaded (its
// error reported) by the access that needs it, one that fails to write stays dirty.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include <funcmesh/core/index.hpp>

namespace funcmesh::detail {

class paged_core;

class prefetcher {
 public:
  explicit prefetcher(paged_core& core);
  ~prefetcher();  // finishes the page being loaded, drops the rest, joins
  prefetcher(const prefetcher&) = delete;
  prefetcher& operator=(const prefetcher&) = delete;

  enum class task : bool { load, write_back };
  void request(index_t page, task what = task::load);
  // Returns when every request made so far has been handled.
  void wait();

 private:
  void run();

  static constexpr std::size_t max_queued = 256;
  paged_core& core_;
  std::mutex mutex_;
  std::condition_variable wake_, idle_;
  struct entry {
    index_t page;
    task what;
  };
  std::deque<entry> queue_;
  bool busy_ = false;
  bool stop_ = false;
  std::thread thread_;  // last: starts after the members it uses exist
};

}  // namespace funcmesh::detail
