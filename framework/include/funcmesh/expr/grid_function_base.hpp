// grid_function_base: the part of a grid function that is not a template (its name,
// sizes, storage and write count; a halo_source), and the binder that turns an
// expression's grid functions into views in one memory space for one loop.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <funcmesh/core/error.hpp>
#include <funcmesh/core/index.hpp>
#include <funcmesh/exec/executor.hpp>
#include <funcmesh/expr/halo_source.hpp>
#include <funcmesh/memory/array.hpp>
#include <funcmesh/memory/buffer.hpp>
#include <funcmesh/memory/memory_space.hpp>
#include <funcmesh/memory/token.hpp>

namespace funcmesh {

// How an expression reads a grid function: at the index being computed, or at any
// index through a proxy (neighbours, indirection).
enum class read_mode { own_index, proxy };

// An assignment that reads its target through a proxy throws aliasing_error
// (funcmesh/core/error.hpp).

namespace detail {
// The windows of one page of a page-by-page loop over paged grid functions (paged/).
class page_binding;
}  // namespace detail

// Its halo_source overrides are final: calls on a grid function stay direct (inlined).
class grid_function_base : public halo_source {
 public:
  const std::string& name() const final { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }
  // Values this rank computes: indices [0, owned_size()).
  index_t owned_size() const final { return owned_size_; }
  // Owned values followed by halo copies of other ranks' values.
  index_t total_size() const final { return total_size_; }
  index_t halo_size() const { return total_size_ - owned_size_; }
  // Bytes per value (sizeof(T) of a grid_function<T>).
  std::size_t element_size() const final { return element_size_; }

  buffer& storage() { return storage_; }
  const buffer& storage() const { return storage_; }

  // Incremented by every assignment that writes this function: the dirty bit of the comm
  // layer, which compares it with the count at its last halo exchange.
  std::uint64_t write_count() const final { return write_count_; }
  void mark_written() { ++write_count_; }

  // "grid function 'u'" or "an unnamed grid function", for messages.
  std::string describe() const final;

  // The halo path: the gather and scatter kernels on the round's executor. Unpacking the
  // halo is not a write; it writes through `holder` (a bound loop's token: the pointer its
  // views hold, in its space).
  pack_site packs_on() const final { return pack_site::executor; }
  void pack(const executor& on, const array<index_t>& indices, buffer& packed) const final;
  void unpack(const executor& on, const buffer& packed, const array<index_t>& indices,
              token& holder) final;

 protected:
  grid_function_base(std::string name, index_t owned_size, index_t total_size,
                     std::size_t element_size);
  grid_function_base(const grid_function_base& other);  // deep copy of the values
  grid_function_base(grid_function_base&&) noexcept = default;
  grid_function_base& operator=(const grid_function_base& other);
  // Takes the other's values and counts a write on both (as swap does): a halo filled
  // before the move no longer belongs to these values.
  grid_function_base& operator=(grid_function_base&& other) noexcept;
  ~grid_function_base() = default;
  void swap_with(grid_function_base& other) noexcept;

 private:
  std::string name_;
  index_t owned_size_ = 0;
  index_t total_size_ = 0;
  std::size_t element_size_ = 0;
  buffer storage_;
  std::uint64_t write_count_ = 0;
};

// Acquires, with one token, the pointers a loop needs in one space: targets for writing
// first, then everything read. A read of a target returns the target's own pointer (one
// token cannot wait on itself).
class binder {
 public:
  binder(memory_space space, token& holder) : space_(space), holder_(&holder) {}

  memory_space space() const { return space_; }
  // The loop's one token, for other arrays its kernel reads (a mesh's connectivity).
  token& holder() const { return *holder_; }
  // Writes keep values outside the loop's range (halo, other indices); `overwrite`
  // skips copying old contents when the loop writes every index.
  void* bind_target(grid_function_base& target, bool overwrite);
  const void* bind_read(const grid_function_base& function);
  // Set only by the page-by-page loops of paged grid functions: what their leaves bind
  // to for the page being computed. Null elsewhere, and a paged leaf then refuses to bind
  // (its values are not in any one space: the loop must map them page by page).
  void set_pages(const detail::page_binding* pages) { pages_ = pages; }
  const detail::page_binding* pages() const { return pages_; }

 private:
  struct bound_target {
    const grid_function_base* function;
    void* pointer;
  };
  const bound_target* find(const grid_function_base& function) const;

  memory_space space_;
  token* holder_;
  const detail::page_binding* pages_ = nullptr;
  // Loops write few targets: the first ones live here, so that binding allocates nothing.
  std::array<bound_target, 4> first_targets_{};
  std::size_t first_count_ = 0;
  std::vector<bound_target> more_targets_;
};

}  // namespace funcmesh
