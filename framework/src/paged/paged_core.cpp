// The untyped engine of paged arrays (see detail/paged_core.hpp): page access through
// the channel caches, bulk and uncached transfers, flushing, find.
#include <funcmesh/paged/detail/paged_core.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include <funcmesh/core/error.hpp>
#include <funcmesh/paged/detail/prefetcher.hpp>

namespace funcmesh::detail {

namespace {
int channels_of(const std::unique_ptr<page_store>& store) {
  if (!store) throw paged_error("paged_array: no store given");
  if (store->is_open())
    throw paged_error("paged_array: " + store->describe() +
                      " is already open; pass an unopened store (each array opens its own)");
  return store->channels();
}
}  // namespace

paged_core::paged_core(index_t size, std::size_t element_bytes, std::unique_ptr<page_store> store,
                       const paged_options& options)
    : layout_(
          make_page_layout(size, element_bytes, options.page, options.cached, channels_of(store))),
      page_divider_(layout_.page_elements),
      channel_divider_(layout_.channels),
      store_(std::move(store)) {
  channels_ =
      std::make_unique<std::optional<channel>[]>(static_cast<std::size_t>(layout_.channels));
  for (int c = 0; c < layout_.channels; ++c) {
    channels_[static_cast<std::size_t>(c)].emplace(layout_.cached_per_channel, layout_.page_bytes(),
                                                   options.replacement);
  }
  store_->open(layout_);
}

paged_core::~paged_core() {
  prefetcher_.reset();  // joins: nothing runs in the background from here on
  if (!store_->keeps_data()) return;
  try {
    flush();
  } catch (const std::exception& e) {
    // A destructor cannot throw; call flush() before destruction to handle this.
    std::fprintf(stderr, "funcmesh: paged_array on %s lost dirty pages at destruction: %s\n",
                 store_->describe().c_str(), e.what());
  }
}

void paged_core::write_back(int channel_index, channel& c, int slot) {
  const index_t local = c.cache.key(slot);
  const std::size_t bytes = layout_.bytes_in(layout_.page_of(channel_index, local));
  store_->write(channel_index, local, 0, bytes, c.cache.data(slot));  // throws: stays dirty
  c.cache.set_dirty(slot, false);
  ++c.counts.write_backs;
  c.counts.bytes_to_store += bytes;
}

paged_core::page_hold paged_core::acquire_missed(int channel_index, channel& c, index_t page,
                                                 index_t local, page_access access,
                                                 std::unique_lock<channel_lock> lock) {
  ++c.counts.misses;
  const int slot = c.cache.victim();
  if (c.cache.key(slot) != page_cache::no_page) {
    if (c.cache.dirty(slot)) write_back(channel_index, c, slot);
    c.cache.release(slot);
  }
  if (access != page_access::overwrite) {
    const std::size_t bytes = layout_.bytes_in(page);
    store_->read(channel_index, local, 0, bytes, c.cache.data(slot));  // throws: slot free
    c.counts.bytes_from_store += bytes;
  }
  c.cache.assign(slot, local);
  if (access != page_access::read) c.cache.set_dirty(slot, true);
  return {std::move(lock), c.cache.data(slot)};
}

// copy(page, first element in the page, elements, elements before this piece).
template <class Copy>
void paged_core::for_each_page(index_t first, index_t count, Copy&& copy) {
  const index_t end = first + count;
  for (index_t i = first; i < end;) {
    const auto [page, in_page] = place_of(i);
    const index_t n = std::min(end - i, layout_.page_elements - in_page);
    copy(page, in_page, n, i - first);
    i += n;
  }
}

void paged_core::read(index_t first, index_t count, void* host) {
  auto* out = static_cast<std::byte*>(host);
  const std::size_t eb = layout_.element_bytes;
  for_each_page(first, count, [&](index_t page, index_t in_page, index_t n, index_t done) {
    const auto [channel_index, local] = home_of(page);
    channel& c = *channels_[static_cast<std::size_t>(channel_index)];
    const std::size_t bytes = static_cast<std::size_t>(n) * eb;
    std::byte* destination = out + static_cast<std::size_t>(done) * eb;
    std::lock_guard guard(c.mutex);
    if (const int slot = c.cache.find(local); slot >= 0) {
      std::memcpy(destination, c.cache.data(slot) + static_cast<std::size_t>(in_page) * eb, bytes);
      ++c.counts.hits;
    } else {
      store_->read(channel_index, local, static_cast<std::size_t>(in_page) * eb, bytes,
                   destination);
      ++c.counts.direct_reads;
      c.counts.bytes_from_store += bytes;
    }
  });
}

void paged_core::write(index_t first, index_t count, const void* host) {
  const auto* in = static_cast<const std::byte*>(host);
  const std::size_t eb = layout_.element_bytes;
  for_each_page(first, count, [&](index_t page, index_t in_page, index_t n, index_t done) {
    const auto [channel_index, local] = home_of(page);
    channel& c = *channels_[static_cast<std::size_t>(channel_index)];
    const std::size_t bytes = static_cast<std::size_t>(n) * eb;
    const std::byte* source = in + static_cast<std::size_t>(done) * eb;
    std::lock_guard guard(c.mutex);
    if (const int slot = c.cache.find(local); slot >= 0) {
      std::memcpy(c.cache.data(slot) + static_cast<std::size_t>(in_page) * eb, source, bytes);
      c.cache.set_dirty(slot, true);
      ++c.counts.hits;
    } else {
      store_->write(channel_index, local, static_cast<std::size_t>(in_page) * eb, bytes, source);
      ++c.counts.direct_writes;
      c.counts.bytes_to_store += bytes;
    }
  });
}

void paged_core::read_uncached(index_t i, void* host) {
  const auto [channel_index, local, offset] = home_of_element(i);
  channel& c = *channels_[static_cast<std::size_t>(channel_index)];
  const std::size_t eb = layout_.element_bytes;
  std::lock_guard guard(c.mutex);
  if (const int slot = c.cache.find(local); slot >= 0 && c.cache.dirty(slot)) {
    std::memcpy(host, c.cache.data(slot) + offset, eb);  // newer than the store
    return;
  }
  store_->read(channel_index, local, offset, eb, host);
  ++c.counts.direct_reads;
  c.counts.bytes_from_store += eb;
}

void paged_core::write_uncached(index_t i, const void* host) {
  const auto [channel_index, local, offset] = home_of_element(i);
  channel& c = *channels_[static_cast<std::size_t>(channel_index)];
  const std::size_t eb = layout_.element_bytes;
  std::lock_guard guard(c.mutex);
  store_->write(channel_index, local, offset, eb, host);
  ++c.counts.direct_writes;
  c.counts.bytes_to_store += eb;
  // A cached copy is updated too, so it never goes stale and nothing needs reloading.
  if (const int slot = c.cache.find(local); slot >= 0)
    std::memcpy(c.cache.data(slot) + offset, host, eb);
}

void paged_core::flush_locked(int channel_index, channel& c) {
  for (int slot = 0; slot < static_cast<int>(c.cache.slots()); ++slot)
    if (c.cache.key(slot) != page_cache::no_page && c.cache.dirty(slot))
      write_back(channel_index, c, slot);
}

void paged_core::flush() {
  for (int ci = 0; ci < layout_.channels; ++ci) {
    channel& c = *channels_[static_cast<std::size_t>(ci)];
    std::lock_guard guard(c.mutex);
    flush_locked(ci, c);
  }
}

void paged_core::stream_start() {
  flush();
  streaming_.store(true, std::memory_order_relaxed);
}

// The original reloaded every cached page here because its uncached writes bypassed
// them; write_uncached keeps cached copies current, so there is nothing to reload.
void paged_core::stream_stop() { streaming_.store(false, std::memory_order_relaxed); }

std::vector<index_t> paged_core::find(std::size_t offset, const void* value,
                                      std::size_t value_bytes, index_t max_per_channel) {
  if (max_per_channel < 0)
    throw paged_error("paged_array::find: max_per_channel must be >= 0 (got " +
                      std::to_string(max_per_channel) + ")");
  if (value_bytes == 0 || offset + value_bytes > layout_.element_bytes)
    throw paged_error("paged_array::find: the compared bytes [" + std::to_string(offset) + ", " +
                      std::to_string(offset + value_bytes) + ") are not inside an element of " +
                      std::to_string(layout_.element_bytes) + " bytes");
  if (max_per_channel == 0) return {};
  // Every channel locked (in order, so two finds cannot deadlock) and flushed: the store
  // then holds every value, and no write can slip in during the scan.
  std::vector<std::unique_lock<channel_lock>> locks;
  locks.reserve(static_cast<std::size_t>(layout_.channels));
  for (int ci = 0; ci < layout_.channels; ++ci) {
    channel& c = *channels_[static_cast<std::size_t>(ci)];
    locks.emplace_back(c.mutex);
    flush_locked(ci, c);
  }
  return store_->find({offset, value, value_bytes, max_per_channel});
}

prefetcher& paged_core::background() {
  std::lock_guard guard(prefetcher_mutex_);
  if (!prefetcher_) prefetcher_ = std::make_unique<prefetcher>(*this);
  return *prefetcher_;
}

void paged_core::prefetch(index_t page) { background().request(page); }

void paged_core::write_behind(index_t page) {
  background().request(page, prefetcher::task::write_back);
}

void paged_core::write_back_in_background(index_t page) {
  const auto [channel_index, local] = home_of(page);
  channel& c = *channels_[static_cast<std::size_t>(channel_index)];
  std::lock_guard guard(c.mutex);
  const int slot = c.cache.find(local);
  if (slot < 0 || !c.cache.dirty(slot)) return;
  try {
    write_back(channel_index, c, slot);
  } catch (...) {
    // Left dirty: the eviction or flush that writes it next reports the error.
  }
}

void paged_core::wait_for_prefetches() {
  std::lock_guard guard(prefetcher_mutex_);
  if (prefetcher_) prefetcher_->wait();
}

void paged_core::load_in_background(index_t page) {
  const auto [channel_index, local] = home_of(page);
  channel& c = *channels_[static_cast<std::size_t>(channel_index)];
  std::lock_guard guard(c.mutex);
  if (c.cache.find(local) >= 0) return;
  const int slot = c.cache.victim();
  if (c.cache.key(slot) != page_cache::no_page) {
    if (c.cache.dirty(slot)) return;
    c.cache.release(slot);
  }
  const std::size_t bytes = layout_.bytes_in(page);
  try {
    store_->read(channel_index, local, 0, bytes, c.cache.data(slot));
  } catch (...) {
    return;  // the slot stays free; the access that needs the page reports the error
  }
  c.cache.assign(slot, local);
  ++c.counts.prefetches;
  c.counts.bytes_from_store += bytes;
}

cache_statistics paged_core::statistics() const {
  cache_statistics total;
  for (int ci = 0; ci < layout_.channels; ++ci) total += statistics(ci);
  return total;
}

cache_statistics paged_core::statistics(int channel_index) const {
  if (channel_index < 0 || channel_index >= layout_.channels)
    throw index_error(channel_index, layout_.channels);
  const channel& c = *channels_[static_cast<std::size_t>(channel_index)];
  std::lock_guard guard(c.mutex);
  return c.counts;
}

void paged_core::reset_statistics() {
  for (int ci = 0; ci < layout_.channels; ++ci) {
    channel& c = *channels_[static_cast<std::size_t>(ci)];
    std::lock_guard guard(c.mutex);
    c.counts = {};
  }
}

void paged_core::throw_range_error(index_t first, index_t count) const {
  if (count < 0)
    throw paged_error("paged_array: a range of " + std::to_string(count) + " elements");
  if (first < 0 || first > layout_.size) throw index_error(first, layout_.size);
  throw index_error(layout_.size, layout_.size);  // the first index past the end
}

}  // namespace funcmesh::detail
