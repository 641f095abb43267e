// paged_array<T>: an array larger than host memory (or than one device), its pages held
// by a store (device memories, a file) and cached per channel in host memory. Every
// access is thread-safe and bounds-checked; whole pages can be used in place.
#pragma once

#include <cstring>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include <funcmesh/core/error.hpp>
#include <funcmesh/core/index.hpp>
#include <funcmesh/paged/cache_statistics.hpp>
#include <funcmesh/paged/detail/mapped_buffer.hpp>
#include <funcmesh/paged/detail/paged_core.hpp>
#include <funcmesh/paged/page_layout.hpp>
#include <funcmesh/paged/page_store.hpp>
#include <funcmesh/paged/paged_options.hpp>

namespace funcmesh {

namespace detail {
// The byte offset of a data member, for find(member, value). The char array implicitly
// creates a T there (T is trivially copyable), so forming the member's address is sound.
template <class T, class M>
std::size_t member_offset(M T::*member) {
  alignas(T) unsigned char storage[sizeof(T)] = {};
  const T* object = reinterpret_cast<const T*>(storage);
  return static_cast<std::size_t>(reinterpret_cast<const unsigned char*>(&(object->*member)) -
                                  storage);
}
}  // namespace detail

template <class T>
class paged_array {
  static_assert(std::is_trivially_copyable_v<T>,
                "funcmesh: paged_array<T> moves elements as bytes between stores, caches and "
                "devices: T must be trivially copyable");

 public:
  using value_type = T;

  // `store` is a recipe: the array opens its own instance of it (so a recipe serves many
  // arrays). Throws paged_error for a layout that cannot work (see make_page_layout),
  // allocation_error for a space without room, store_error for a file that cannot be made.
  paged_array(index_t size, const page_store& store, paged_options options = {})
      : paged_array(size, store.clone_unopened(), options) {}
  // An unopened store instance, handed over (a store type of your own, say).
  paged_array(index_t size, std::unique_ptr<page_store> store, paged_options options = {})
      : core_(std::make_unique<detail::paged_core>(size, sizeof(T), std::move(store), options)) {}

  index_t size() const { return layout().size; }
  index_t page_size() const { return layout().page_elements; }
  index_t pages() const { return layout().pages; }
  int channels() const { return layout().channels; }
  index_t cached_pages_per_channel() const { return layout().cached_per_channel; }
  const page_layout& layout() const { return core_->layout(); }
  page_store& store() { return core_->store(); }
  const page_store& store() const { return core_->store(); }

  // --- elements, through the cache ------------------------------------------------------
  T get(index_t i) const {
    check(i);
    const auto [page, offset] = core_->place_of(i);
    auto hold = core_->acquire(page, page_access::read);
    T value;
    std::memcpy(&value, element_in(hold, offset), sizeof(T));
    return value;
  }
  void set(index_t i, const T& value) {
    check(i);
    const auto [page, offset] = core_->place_of(i);
    auto hold = core_->acquire(page, page_access::write);
    std::memcpy(element_in(hold, offset), &value, sizeof(T));
  }
  // f(T&) on element i under its channel's lock: a read-modify-write no other thread can
  // interleave with (a[i] += v is one). f must not use this array.
  template <class F>
  void update(index_t i, F&& f) {
    check(i);
    const auto [page, offset] = core_->place_of(i);
    auto hold = core_->acquire(page, page_access::write);
    T value;
    std::memcpy(&value, element_in(hold, offset), sizeof(T));
    std::forward<F>(f)(value);
    std::memcpy(element_in(hold, offset), &value, sizeof(T));
  }

  class reference;
  reference operator[](index_t i) { return reference(*this, i); }
  T operator[](index_t i) const { return get(i); }

  // --- ranges ---------------------------------------------------------------------------
  // Cached pages are copied in the cache; the others move directly between the store and
  // `values`, neither loaded into the cache nor evicting from it. Each page is copied
  // atomically (under its channel's lock); a range over several pages is not.
  std::vector<T> read(index_t first, index_t count) const {
    check_range(first, count);
    std::vector<T> values(static_cast<std::size_t>(count));
    core_->read(first, count, values.data());
    return values;
  }
  void read(index_t first, std::span<T> values) const {
    check_range(first, static_cast<index_t>(values.size()));
    core_->read(first, static_cast<index_t>(values.size()), values.data());
  }
  void write(index_t first, std::span<const T> values) {
    check_range(first, static_cast<index_t>(values.size()));
    core_->write(first, static_cast<index_t>(values.size()), values.data());
  }

  // f(ptr) with ptr[k] element first + k, k < count, in a 4096-aligned host buffer:
  // filled first if options.read (else zeroed), written back after f if options.write,
  // page-locked (mlock over its bytes; allocation_error when that fails) if options.pinned.
  template <class F>
  void map(index_t first, index_t count, F&& f, map_options options = {}) {
    check_range(first, count);
    detail::mapped_buffer buffer(static_cast<std::size_t>(count) * sizeof(T), options.pinned,
                                 !options.read);
    T* ptr = static_cast<T*>(buffer.data());
    if (options.read && count > 0) core_->read(first, count, ptr);
    std::forward<F>(f)(ptr);
    if (options.write && count > 0) core_->write(first, count, ptr);
  }

  // f(T* data, index_t count) on page `page` in place in the cache (no copy beyond the
  // page's load), under its channel's lock: the page-by-page access of out-of-core loops.
  // With page_access::overwrite a page that is not cached is not read first; f must then
  // write all `count` elements. f must not use this array's pages of the same channel.
  template <class F>
  void map_page(index_t page, page_access access, F&& f) {
    if (page < 0 || page >= pages()) throw index_error(page, pages());
    auto hold = core_->acquire(page, access);
    std::forward<F>(f)(reinterpret_cast<T*>(hold.data), layout().elements_in(page));
  }

  // --- streaming: one element at a time, without the cache ------------------------------
  // stream_start() writes every dirty page back, so uncached reads come from the store.
  // get_uncached/set_uncached never load or evict a page; a cached copy of the page is
  // used when it is newer (dirty) and updated on a write, so cached and uncached access
  // agree at every moment and stream_stop() has nothing to reload.
  void stream_start() { core_->stream_start(); }
  void stream_stop() { core_->stream_stop(); }
  bool streaming() const { return core_->streaming(); }
  T get_uncached(index_t i) const {
    check(i);
    T value;
    core_->read_uncached(i, &value);
    return value;
  }
  void set_uncached(index_t i, const T& value) {
    check(i);
    core_->write_uncached(i, &value);
  }

  // --- search ---------------------------------------------------------------------------
  // Sorted indices of the elements equal to `value` byte for byte (their object
  // representations: mind padding in structs, and that 0.0 != -0.0 and NaN == the same
  // NaN here), at most max_per_channel per channel (the lowest of each). Flushes first, and
  // holds every channel during the scan, which runs where the store keeps the pages.
  std::vector<index_t> find(const T& value, index_t max_per_channel = unlimited_matches) {
    return core_->find(0, &value, sizeof(T), max_per_channel);
  }
  // The elements whose `member` equals `value` (the seed's find(obj, obj.member)). The
  // class is deduced (C = T), so paged_array<double> never forms `M double::*`.
  template <class M, class C>
  requires std::is_same_v<C, T> std::vector<index_t> find(
      M C::*member, const std::type_identity_t<M>& value,
      index_t max_per_channel = unlimited_matches) {
    static_assert(std::is_trivially_copyable_v<M>, "funcmesh: find compares members as bytes");
    return core_->find(detail::member_offset(member), &value, sizeof(M), max_per_channel);
  }

  // --- cache control --------------------------------------------------------------------
  // Loads the page of element i in the background (a hint: no value changes, and a later
  // access may find it cached). wait_for_prefetches() waits for the requests so far.
  void prefetch(index_t i) const {
    check(i);
    core_->prefetch(core_->place_of(i).page);
  }
  // Writes the page of element i back in the background if it is dirty then (a hint: a
  // page written again before it is evicted is written back again; a failure leaves it
  // dirty, reported when it is evicted or flushed). For loops that sweep an array larger
  // than its cache: the victims they evict are then clean.
  void write_behind(index_t i) {
    check(i);
    core_->write_behind(core_->place_of(i).page);
  }
  void wait_for_prefetches() const { core_->wait_for_prefetches(); }
  // Writes every dirty page back (store_error on failure; the pages stay dirty).
  void flush() { core_->flush(); }

  cache_statistics statistics() const { return core_->statistics(); }
  cache_statistics statistics(int channel) const { return core_->statistics(channel); }
  void reset_statistics() { core_->reset_statistics(); }

 private:
  void check(index_t i) const {
    if (i < 0 || i >= size()) throw index_error(i, size());
  }
  void check_range(index_t first, index_t count) const {
    if (first < 0 || count < 0 || first > size() - count) core_->throw_range_error(first, count);
  }
  static std::byte* element_in(const detail::paged_core::page_hold& hold, index_t offset) {
    return hold.data + static_cast<std::size_t>(offset) * sizeof(T);
  }

  std::unique_ptr<detail::paged_core> core_;
};

// What a[i] returns: reads and writes element i through get/set, so `a[i] = v`,
// `T v = a[i]`, `a[i] = a[j]` and the compound forms (each one locked read-modify-write)
// all work.
template <class T>
class paged_array<T>::reference {
 public:
  reference(paged_array& array, index_t i) : array_(&array), index_(i) {}
  reference(const reference&) = default;

  operator T() const { return array_->get(index_); }
  reference& operator=(const T& value) {
    array_->set(index_, value);
    return *this;
  }
  // a[i] = a[j]: the value of element j, not a rebinding of the proxy.
  reference& operator=(const reference& other) {
    array_->set(index_, static_cast<T>(other));
    return *this;
  }
  template <class U>
  reference& operator+=(const U& v) {
    array_->update(index_, [&](T& x) { x += v; });
    return *this;
  }
  template <class U>
  reference& operator-=(const U& v) {
    array_->update(index_, [&](T& x) { x -= v; });
    return *this;
  }
  template <class U>
  reference& operator*=(const U& v) {
    array_->update(index_, [&](T& x) { x *= v; });
    return *this;
  }
  template <class U>
  reference& operator/=(const U& v) {
    array_->update(index_, [&](T& x) { x /= v; });
    return *this;
  }

 private:
  paged_array* array_;
  index_t index_;
};

}  // namespace funcmesh
