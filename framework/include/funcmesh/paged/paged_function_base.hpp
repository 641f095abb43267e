// paged_function_base: the part of a paged grid function that is not a template (its name,
// page layout and untyped range reads): what the page-by-page loops of assignments and
// reductions need to find, size and map the paged functions an expression reads, and the
// halo_source a paged distributed function's halo exchange packs through its cache.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include <funcmesh/core/index.hpp>
#include <funcmesh/expr/grid_read.hpp>
#include <funcmesh/expr/halo_source.hpp>
#include <funcmesh/paged/page_layout.hpp>

namespace funcmesh {

namespace detail {
// Throws paged_error: owned and halo counts that are negative or whose sum overflows.
[[noreturn]] void refuse_paged_sizes(index_t owned, index_t halo);
}  // namespace detail

// Its halo_source overrides are final: calls on a paged function stay direct.
class paged_function_base : public halo_source {
 public:
  const std::string& name() const final { return name_; }
  void set_name(std::string name);
  // "paged grid function 'u'" or "an unnamed paged grid function", for messages.
  std::string describe() const final { return description_; }

  // Every value: [0, owned_size()) computed by assignments and reduced by reductions, then
  // the halo (a paged distributed function's copies of other ranks' values; none for a
  // plain paged function).
  index_t size() const { return layout().size; }
  index_t total_size() const final { return size(); }
  index_t owned_size() const final { return owned_size_; }
  index_t page_size() const { return layout().page_elements; }
  index_t pages() const { return layout().pages; }
  std::size_t element_size() const final { return element_size_; }
  virtual const page_layout& layout() const = 0;

  // Copies values [first, first + count) into `out` (count * element_size() bytes): pages
  // that are cached from the cache, the others straight from the store (neither loaded
  // into the cache nor evicting from it). Thread-safe; throws store_error on failure.
  virtual void read_values(index_t first, index_t count, void* out) const = 0;
  // Values at scattered indices through the cache (a halo exchange's packing and
  // unpacking): out[k] = value at indices[k], or value at indices[k] = in[k], each
  // element_size() bytes. Bounds-checked and thread-safe, as get and set; writing the
  // halo this way is not counted as a write (it is what clears a halo's dirty bit).
  virtual void read_elements(std::span<const index_t> indices, void* out) const = 0;
  virtual void write_elements(std::span<const index_t> indices, const void* in) = 0;

  // Changes on every assignment, set() and write() of the function (a distributed
  // function's halo is dirty when it changed since the last exchange).
  std::uint64_t write_count() const final { return write_count_.load(std::memory_order_relaxed); }
  void note_write() { write_count_.fetch_add(1, std::memory_order_relaxed); }

  // The halo path: read_elements and write_elements on the host, through the cache,
  // whatever the round's executor (which they ignore). The pages are the cache's, held by no
  // token: unpack needs none of the caller's.
  pack_site packs_on() const final { return pack_site::host; }
  void pack(const executor& on, const array<index_t>& indices, buffer& packed) const final;
  void unpack(const executor& on, const buffer& packed, const array<index_t>& indices,
              token& holder) final;

  // What its expression leaves report to a visitor: an extent-only read (no buffer)
  // named by describe() and marked as this paged function.
  grid_read read_of(read_mode mode) const {
    grid_read read = grid_read::extent(owned_size_, size(), description_.c_str());
    read.mode = mode;
    read.paged = this;
    return read;
  }
  // The paged function a visited read reports (grid_read::paged, which only read_of sets),
  // or null.
  static const paged_function_base* of(const grid_read& read) {
    return static_cast<const paged_function_base*>(read.paged);
  }

 protected:
  paged_function_base(std::string name, std::size_t element_size, index_t owned_size);
  paged_function_base(paged_function_base&& other) noexcept;
  paged_function_base& operator=(paged_function_base&& other) noexcept;
  virtual ~paged_function_base() = default;
  // The values are swapped (paged_grid_function's swap): so are their sizes, and both
  // count as written.
  void swap_values(paged_function_base& other) noexcept;

 private:
  std::string name_;
  std::string description_;  // kept: grid_read::extent_name points into it
  std::size_t element_size_;
  index_t owned_size_;
  std::atomic<std::uint64_t> write_count_{0};
};

}  // namespace funcmesh
