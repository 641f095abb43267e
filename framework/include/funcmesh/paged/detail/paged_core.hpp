// paged_core: the untyped engine behind paged_array<T>, compiled once: layout, store, one
// lock, page cache and statistics per channel, bulk and uncached transfers, flushing,
// find and prefetching. The typed front end adds only copies of sizeof(T) bytes.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/paged/cache_statistics.hpp>
#include <funcmesh/paged/detail/channel_lock.hpp>
#include <funcmesh/paged/detail/fast_divider.hpp>
#include <funcmesh/paged/detail/page_cache.hpp>
#include <funcmesh/paged/page_layout.hpp>
#include <funcmesh/paged/page_store.hpp>
#include <funcmesh/paged/paged_options.hpp>

namespace funcmesh::detail {

class prefetcher;

class paged_core {
 public:
  // Checks the layout (paged_error), builds the caches, opens the store (allocation_error,
  // store_error). `store` must be unopened.
  paged_core(index_t size, std::size_t element_bytes, std::unique_ptr<page_store> store,
             const paged_options& options);
  ~paged_core();
  paged_core(const paged_core&) = delete;
  paged_core& operator=(const paged_core&) = delete;

  const page_layout& layout() const { return layout_; }
  page_store& store() { return *store_; }
  const page_store& store() const { return *store_; }

  // Element i is element `offset` of page `page` (no hardware division: see fast_divider).
  struct place {
    index_t page;
    index_t offset;
  };
  place place_of(index_t i) const {
    const index_t page = page_divider_.divide(i);
    return {page, i - page * layout_.page_elements};
  }
  // Page p is local page `local` of channel `channel`.
  struct home {
    int channel;
    index_t local;
  };
  home home_of(index_t page) const {
    const index_t local = channel_divider_.divide(page);
    return {static_cast<int>(page - local * layout_.channels), local};
  }

  // A cached page held under its channel's lock for as long as the object lives.
  struct page_hold {
    std::unique_lock<channel_lock> lock;
    std::byte* data = nullptr;
  };
  // Page `page` in the cache (loaded on a miss after writing back a dirty victim; not
  // loaded for overwrite); write and overwrite mark it dirty. Throws store_error when
  // the write-back or the load fails: a failed write-back leaves the victim cached and
  // dirty, a failed load leaves the slot empty.
  // A hit is inline (the lock, the lookup, the recency update); a miss goes out of line.
  page_hold acquire(index_t page, page_access access) {
    const auto [channel_index, local] = home_of(page);
    channel& c = *channels_[static_cast<std::size_t>(channel_index)];
    std::unique_lock lock(c.mutex);
    const int slot = c.cache.find(local);
    if (slot < 0) [[unlikely]] {
      return acquire_missed(channel_index, c, page, local, access, std::move(lock));
    }
    ++c.counts.hits;
    c.cache.touch(slot);
    if (access != page_access::read) c.cache.set_dirty(slot, true);
    return {std::move(lock), c.cache.data(slot)};
  }

  // Elements [first, first + count) to or from host memory, a page at a time under its
  // channel's lock: cached pages are copied in the cache, the others move directly
  // between the store and `host` without passing through (or evicting from) the cache.
  void read(index_t first, index_t count, void* host);
  void write(index_t first, index_t count, const void* host);
  // One element without caching its page; a cached copy is used (read, when dirty) or
  // updated (write), so cached and uncached access never disagree.
  void read_uncached(index_t i, void* host);
  void write_uncached(index_t i, const void* host);

  // Writes every dirty page back; the pages stay cached, now clean.
  void flush();
  void stream_start();
  void stream_stop();
  bool streaming() const { return streaming_.load(std::memory_order_relaxed); }

  std::vector<index_t> find(std::size_t offset, const void* value, std::size_t value_bytes,
                            index_t max_per_channel);

  void prefetch(index_t page);
  // Writes `page` back in the background if it is cached and dirty when its turn comes
  // (so that evicting it later costs no write); a hint, as prefetch.
  void write_behind(index_t page);
  void wait_for_prefetches();
  // For the prefetcher: loads `page` into the least recently used slot when that slot is
  // free or clean; does nothing when the page is cached or the slot is dirty (a
  // background write-back could only fail unseen). Load errors are left to the access
  // that needs the page.
  void load_in_background(index_t page);
  // For the prefetcher: writes `page` back when it is cached and dirty. A failure leaves
  // it dirty, to be written (and the error reported) when it is evicted or flushed.
  void write_back_in_background(index_t page);

  cache_statistics statistics() const;
  cache_statistics statistics(int channel) const;
  void reset_statistics();

  [[noreturn]] void throw_range_error(index_t first, index_t count) const;

 private:
  // Each on cache lines of its own: threads on different channels never share a line.
  struct alignas(64) channel {
    mutable channel_lock mutex;
    page_cache cache;
    cache_statistics counts;
    channel(index_t slots, std::size_t page_bytes, page_replacement replacement)
        : cache(slots, page_bytes, replacement) {}
  };
  // Where element i lives in the store: its channel, local page and byte offset in it.
  struct element_home {
    int channel_index;
    index_t local;
    std::size_t offset;
  };
  element_home home_of_element(index_t i) const {
    const auto [page, in_page] = place_of(i);
    const auto [channel_index, local] = home_of(page);
    return {channel_index, local, static_cast<std::size_t>(in_page) * layout_.element_bytes};
  }
  // The background thread, started on first use.
  prefetcher& background();
  page_hold acquire_missed(int channel_index, channel& c, index_t page, index_t local,
                           page_access access, std::unique_lock<channel_lock> lock);
  void write_back(int channel_index, channel& c, int slot);
  void flush_locked(int channel_index, channel& c);
  template <class Copy>
  void for_each_page(index_t first, index_t count, Copy&& copy);

  page_layout layout_;
  fast_divider page_divider_;     // by layout_.page_elements
  fast_divider channel_divider_;  // by layout_.channels
  std::unique_ptr<page_store> store_;
  // One contiguous array (a hit reaches its channel with one load less than through
  // pointers); optional only because channels are built in place, never moved.
  std::unique_ptr<std::optional<channel>[]> channels_;
  std::atomic<bool> streaming_{false};
  std::unique_ptr<prefetcher> prefetcher_;
  std::mutex prefetcher_mutex_;  // guards the lazy start of prefetcher_
};

}  // namespace funcmesh::detail
