// One channel's page cache, LRU or CLOCK (see detail/page_cache.hpp).
#include <funcmesh/paged/detail/page_cache.hpp>

#include <bit>
#include <cstdlib>
#include <new>

#include <funcmesh/core/error.hpp>
#include <funcmesh/memory/memory_error.hpp>
#include <funcmesh/memory/memory_space.hpp>

namespace funcmesh::detail {

namespace {
constexpr std::size_t slab_alignment = 4096;  // a page boundary: DMA- and SIMD-friendly
}

page_cache::page_cache(index_t slots, std::size_t page_bytes, page_replacement replacement)
    : page_bytes_(page_bytes),
      key_(static_cast<std::size_t>(slots), no_page),
      dirty_(static_cast<std::size_t>(slots), 0),
      replacement_(replacement),
      previous_(static_cast<std::size_t>(slots), -1),
      next_(static_cast<std::size_t>(slots), -1),
      referenced_(static_cast<std::size_t>(slots), 0) {
  const std::size_t bytes = static_cast<std::size_t>(slots) * page_bytes;  // checked by layout
  const std::size_t rounded = (bytes + slab_alignment - 1) / slab_alignment * slab_alignment;
  memory_ = static_cast<std::byte*>(std::aligned_alloc(slab_alignment, rounded));
  if (memory_ == nullptr)
    throw allocation_error(bytes, host_space, "out of host memory (page cache)");
  for (int slot = 0; slot < static_cast<int>(slots); ++slot) push_back(slot);
  const std::size_t buckets = std::bit_ceil(static_cast<std::size_t>(2 * slots));
  table_.assign(buckets, -1);
  shift_ = 64 - std::countr_zero(buckets);
}

page_cache::~page_cache() { std::free(memory_); }

void page_cache::insert_key(int slot) {
  const std::size_t mask = table_.size() - 1;
  std::size_t b = bucket_of(key_[static_cast<std::size_t>(slot)]);
  while (table_[b] >= 0) b = (b + 1) & mask;
  table_[b] = slot;
}

// Linear probing with backward-shift deletion: no tombstones, so lookups stay short.
void page_cache::erase_key(index_t key) {
  const std::size_t mask = table_.size() - 1;
  std::size_t hole = bucket_of(key);
  while (key_[static_cast<std::size_t>(table_[hole])] != key) hole = (hole + 1) & mask;
  for (std::size_t b = (hole + 1) & mask; table_[b] >= 0; b = (b + 1) & mask) {
    const std::size_t home = bucket_of(key_[static_cast<std::size_t>(table_[b])]);
    // Move the entry back when its home does not lie cyclically in (hole, b].
    const bool stays = hole < b ? (home > hole && home <= b) : (home > hole || home <= b);
    if (!stays) {
      table_[hole] = table_[b];
      hole = b;
    }
  }
  table_[hole] = -1;
}

void page_cache::unlink(int slot) {
  const auto s = static_cast<std::size_t>(slot);
  if (previous_[s] >= 0)
    next_[static_cast<std::size_t>(previous_[s])] = next_[s];
  else
    head_ = next_[s];
  if (next_[s] >= 0)
    previous_[static_cast<std::size_t>(next_[s])] = previous_[s];
  else
    tail_ = previous_[s];
  previous_[s] = next_[s] = -1;
}

void page_cache::push_front(int slot) {
  const auto s = static_cast<std::size_t>(slot);
  previous_[s] = -1;
  next_[s] = head_;
  if (head_ >= 0) previous_[static_cast<std::size_t>(head_)] = slot;
  head_ = slot;
  if (tail_ < 0) tail_ = slot;
}

void page_cache::push_back(int slot) {
  const auto s = static_cast<std::size_t>(slot);
  next_[s] = -1;
  previous_[s] = tail_;
  if (tail_ >= 0) next_[static_cast<std::size_t>(tail_)] = slot;
  tail_ = slot;
  if (head_ < 0) head_ = slot;
}

int page_cache::victim() {
  if (replacement_ == page_replacement::lru) return tail_;
  // At most one full turn clears every bit, so the sweep ends within two turns.
  const int n = static_cast<int>(key_.size());
  for (;;) {
    const auto s = static_cast<std::size_t>(hand_);
    if (key_[s] == no_page || referenced_[s] == 0) return hand_;
    referenced_[s] = 0;
    hand_ = hand_ + 1 == n ? 0 : hand_ + 1;
  }
}

void page_cache::assign(int slot, index_t key) {
  const auto s = static_cast<std::size_t>(slot);
  if (key_[s] != no_page) erase_key(key_[s]);
  key_[s] = key;
  dirty_[s] = 0;
  insert_key(slot);
  if (replacement_ == page_replacement::clock) {
    // A new page gets one sweep's grace; the hand moves past the slot it just filled.
    referenced_[s] = 1;
    if (slot == hand_) hand_ = hand_ + 1 == static_cast<int>(key_.size()) ? 0 : hand_ + 1;
  } else {
    touch(slot);
  }
}

void page_cache::release(int slot) {
  const auto s = static_cast<std::size_t>(slot);
  if (key_[s] != no_page) erase_key(key_[s]);
  key_[s] = no_page;
  dirty_[s] = 0;
  if (replacement_ == page_replacement::clock) {
    referenced_[s] = 0;
    hand_ = slot;  // the next victim, as a free slot is under LRU
  } else {
    unlink(slot);
    push_back(slot);
  }
}

}  // namespace funcmesh::detail
