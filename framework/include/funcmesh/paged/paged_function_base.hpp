// paged_function_base: the part of a paged grid function that is not a template (its name,
// page layout and untyped range reads): what the page-by-page loops of assignments and
// reductions need to find, size and map the paged functions an expression reads.
#pragma once

#include <cstddef>
#include <string>

#include <funcmesh/core/index.hpp>
#include <funcmesh/expr/grid_read.hpp>
#include <funcmesh/paged/page_layout.hpp>

namespace funcmesh {

class paged_function_base {
 public:
  const std::string& name() const { return name_; }
  void set_name(std::string name);
  // "paged grid function 'u'" or "an unnamed paged grid function", for messages.
  const std::string& describe() const { return description_; }

  // A paged function has no halo: every value is owned (a distributed function's halo is
  // exchanged through memory, which is what a paged function does not have).
  index_t size() const { return layout().size; }
  index_t page_size() const { return layout().page_elements; }
  index_t pages() const { return layout().pages; }
  std::size_t element_size() const { return element_size_; }
  virtual const page_layout& layout() const = 0;

  // Copies values [first, first + count) into `out` (count * element_size() bytes): pages
  // that are cached from the cache, the others straight from the store (neither loaded
  // into the cache nor evicting from it). Thread-safe; throws store_error on failure.
  virtual void read_values(index_t first, index_t count, void* out) const = 0;

  // What its expression leaves report to a visitor: an extent-only read (no buffer)
  // named by describe() and marked as this paged function.
  grid_read read_of(read_mode mode) const {
    grid_read read = grid_read::extent(size(), size(), description_.c_str());
    read.mode = mode;
    read.paged = this;
    return read;
  }

 protected:
  paged_function_base(std::string name, std::size_t element_size);
  paged_function_base(paged_function_base&&) noexcept = default;
  paged_function_base& operator=(paged_function_base&&) noexcept = default;
  virtual ~paged_function_base() = default;

 private:
  std::string name_;
  std::string description_;  // kept: grid_read::extent_name points into it
  std::size_t element_size_;
};

}  // namespace funcmesh
