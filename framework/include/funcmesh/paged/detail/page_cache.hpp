// page_cache: one channel's cached pages, least recently used first out, or by CLOCK (a
// reference bit per slot and a sweeping hand). Lookup is an open-addressing table over the
// cached pages only (memory grows with the cache, not the array) and LRU recency a linked
// list over slots, so a hit and a miss are both O(1) (a CLOCK miss amortized).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/paged/paged_options.hpp>

namespace funcmesh::detail {

// Not thread-safe: the channel's lock guards it. Slots hold page_bytes each, in one
// 4096-aligned block, so a cached page is a contiguous, aligned host range.
class page_cache {
 public:
  static constexpr index_t no_page = -1;

  page_cache(index_t slots, std::size_t page_bytes,
             page_replacement replacement = page_replacement::lru);
  ~page_cache();
  page_cache(const page_cache&) = delete;
  page_cache& operator=(const page_cache&) = delete;

  index_t slots() const { return static_cast<index_t>(key_.size()); }
  // The slot holding local page `key`, or -1. Inline, as touch: a hit's whole path.
  int find(index_t key) const {
    const std::size_t mask = table_.size() - 1;
    for (std::size_t b = bucket_of(key);; b = (b + 1) & mask) {
      const int slot = table_[b];
      if (slot < 0) return -1;
      if (key_[static_cast<std::size_t>(slot)] == key) return slot;
    }
  }
  // The slot to reuse on a miss: a free one if any, else the least recently used (LRU) or
  // the first the hand finds unreferenced, clearing the bits it passes (CLOCK).
  int victim();
  // Makes `slot` the most recently used (LRU) or marks it referenced (CLOCK).
  void touch(int slot) {
    if (replacement_ == page_replacement::clock) {
      referenced_[static_cast<std::size_t>(slot)] = 1;
    } else if (slot != head_) {  // a run of accesses to one page costs nothing
      move_to_front(slot);
    }
  }
  // Binds `slot` to `key` (dropping whatever it held) and makes it most recently used.
  void assign(int slot, index_t key);
  // Frees `slot` (it becomes the next victim).
  void release(int slot);

  index_t key(int slot) const { return key_[static_cast<std::size_t>(slot)]; }
  bool dirty(int slot) const { return dirty_[static_cast<std::size_t>(slot)] != 0; }
  void set_dirty(int slot, bool dirty) { dirty_[static_cast<std::size_t>(slot)] = dirty; }
  std::byte* data(int slot) const { return memory_ + static_cast<std::size_t>(slot) * page_bytes_; }

 private:
  // Fibonacci hashing: consecutive local pages spread over the table.
  std::size_t bucket_of(index_t key) const {
    if (shift_ >= 64) return 0;
    return static_cast<std::size_t>((static_cast<std::uint64_t>(key) * 0x9E3779B97F4A7C15ull) >>
                                    shift_);
  }
  void insert_key(int slot);
  void erase_key(index_t key);
  // `slot`, not the head, becomes the head: it has a previous slot, so fewer tests than
  // unlink + push_front.
  void move_to_front(int slot) {
    const auto s = static_cast<std::size_t>(slot);
    const int before = previous_[s], after = next_[s];
    next_[static_cast<std::size_t>(before)] = after;
    if (after >= 0) {
      previous_[static_cast<std::size_t>(after)] = before;
    } else {
      tail_ = before;
    }
    previous_[s] = -1;
    next_[s] = head_;
    previous_[static_cast<std::size_t>(head_)] = slot;
    head_ = slot;
  }
  void unlink(int slot);
  void push_front(int slot);
  void push_back(int slot);

  std::size_t page_bytes_;
  std::byte* memory_ = nullptr;
  std::vector<index_t> key_;         // per slot: its local page, or no_page
  std::vector<std::uint8_t> dirty_;  // per slot
  page_replacement replacement_;
  std::vector<int> previous_, next_;  // LRU recency list: head_ most, tail_ least recent
  int head_ = -1, tail_ = -1;
  std::vector<std::uint8_t> referenced_;  // CLOCK: per slot, set by touch
  int hand_ = 0;                          // CLOCK: the next slot the sweep looks at
  std::vector<int> table_;  // slot per bucket, -1 empty; power-of-two size >= 2 * slots
  int shift_ = 0;
};

}  // namespace funcmesh::detail
