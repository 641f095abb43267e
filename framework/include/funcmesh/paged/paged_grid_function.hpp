// paged_grid_function<T, Tag>: a grid function whose values live in a paged array (a file,
// device memories) with a few pages cached in host memory: for fields larger than memory.
// Assigning an expression runs page by page; reductions over it work as over any function.
#pragma once

#include <limits>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <funcmesh/expr/assign.hpp>
#include <funcmesh/expr/grid_expression.hpp>
#include <funcmesh/expr/tags.hpp>
#include <funcmesh/paged/paged_array.hpp>
#include <funcmesh/paged/paged_assign.hpp>
#include <funcmesh/paged/paged_expression.hpp>
#include <funcmesh/paged/paged_function_base.hpp>

namespace funcmesh {

template <class T, class Tag = cells>
class paged_grid_function final : public paged_function_base {
 public:
  using value_type = T;
  using tag_type = Tag;

  // `size` values in an array opened on `store` (a recipe: kept, so that similar() makes
  // more functions on the same kind of store), cut and cached as `options` say. The
  // array's checks apply (paged_error, allocation_error, store_error).
  paged_grid_function(index_t size, const page_store& store, paged_options options = {},
                      std::string name = {})
      : paged_grid_function(size, std::shared_ptr<const page_store>(store.clone_unopened()),
                            options, std::move(name)) {}
  paged_grid_function(index_t size, std::shared_ptr<const page_store> recipe, paged_options options,
                      std::string name)
      : paged_grid_function(size, 0, std::move(recipe), options, std::move(name)) {}
  // `owned` values that assignments compute and reductions reduce, then `halo` more (a
  // paged distributed function's local values: paged_dist_function.hpp).
  paged_grid_function(index_t owned, index_t halo, std::shared_ptr<const page_store> recipe,
                      paged_options options, std::string name)
      : paged_function_base(std::move(name), sizeof(T), owned),
        recipe_(std::move(recipe)),
        options_(options),
        array_(checked_total(owned, halo), *recipe_, options) {}

  // Moves are cheap; there is no copy constructor (a copy is another array on a store:
  // similar(u, name) then v = u). Copy assignment copies the values, page by page.
  paged_grid_function(paged_grid_function&&) noexcept = default;
  paged_grid_function& operator=(paged_grid_function&&) noexcept = default;
  paged_grid_function(const paged_grid_function&) = delete;
  paged_grid_function& operator=(const paged_grid_function& other) {
    if (this != &other) detail::assign_pages<assign_ops::set>(*this, other, run_options{});
    return *this;
  }
  ~paged_grid_function() override = default;

  // u = e, u += e, ...: page by page over every value, on the default host executor.
  template <class E>
  requires(Expression<E> || Scalar<E>) paged_grid_function& operator=(const E& expression) {
    detail::assign_pages<assign_ops::set>(*this, expression, run_options{});
    return *this;
  }
  template <class E>
  requires(Expression<E> || Scalar<E>) paged_grid_function& operator+=(const E& expression) {
    detail::assign_pages<assign_ops::add>(*this, expression, run_options{});
    return *this;
  }
  template <class E>
  requires(Expression<E> || Scalar<E>) paged_grid_function& operator-=(const E& expression) {
    detail::assign_pages<assign_ops::subtract>(*this, expression, run_options{});
    return *this;
  }
  template <class E>
  requires(Expression<E> || Scalar<E>) paged_grid_function& operator*=(const E& expression) {
    detail::assign_pages<assign_ops::multiply>(*this, expression, run_options{});
    return *this;
  }
  template <class E>
  requires(Expression<E> || Scalar<E>) paged_grid_function& operator/=(const E& expression) {
    detail::assign_pages<assign_ops::divide>(*this, expression, run_options{});
    return *this;
  }
  // u.assign(e, {.on = executor::openmp(), .over = iteration_space::range(b, e)}).
  template <class E>
  void assign(const E& expression, const run_options& options) {
    detail::assign_pages<assign_ops::set>(*this, expression, options);
  }

  // What expressions read: u itself is an operand (u + 1, sum(u), sum_over_faces(.., u)).
  paged_read<T, Tag> as_expression() const { return paged_read<T, Tag>(*this); }

  // Element access through the cache (bounds-checked, thread-safe), ranges, and the
  // array itself for everything else it offers (map_page, statistics, flush, ...).
  // set() and write() count as writes (write_count()); writes through array() do not.
  T get(index_t i) const { return array_.get(i); }
  void set(index_t i, const T& value) {
    array_.set(i, value);
    note_write();
  }
  // The owned values.
  std::vector<T> to_vector() const { return array_.read(0, owned_size()); }
  void write(index_t first, std::span<const T> values) {
    array_.write(first, values);
    note_write();
  }
  void flush() { array_.flush(); }
  paged_array<T>& array() { return array_; }
  const paged_array<T>& array() const { return array_; }
  const std::shared_ptr<const page_store>& recipe() const { return recipe_; }
  const paged_options& options() const { return options_; }

  const page_layout& layout() const override { return array_.layout(); }
  void read_values(index_t first, index_t count, void* out) const override {
    array_.read(first, std::span<T>(static_cast<T*>(out), static_cast<std::size_t>(count)));
  }
  void read_elements(std::span<const index_t> indices, void* out) const override {
    auto* values = static_cast<T*>(out);
    for (std::size_t k = 0; k < indices.size(); ++k) values[k] = array_.get(indices[k]);
  }
  void write_elements(std::span<const index_t> indices, const void* in) override {
    const auto* values = static_cast<const T*>(in);
    for (std::size_t k = 0; k < indices.size(); ++k) array_.set(indices[k], values[k]);
  }

  // Swaps the values (the arrays); names stay with the variables.
  friend void swap(paged_grid_function& a, paged_grid_function& b) noexcept {
    using std::swap;
    swap(a.recipe_, b.recipe_);
    swap(a.options_, b.options_);
    swap(a.array_, b.array_);
    a.swap_values(b);
  }

 private:
  static index_t checked_total(index_t owned, index_t halo) {
    if (owned < 0 || halo < 0 || owned > std::numeric_limits<index_t>::max() - halo) {
      detail::refuse_paged_sizes(owned, halo);
    }
    return owned + halo;
  }

  std::shared_ptr<const page_store> recipe_;
  paged_options options_;
  paged_array<T> array_;
};

// The time driver's state interface (time/state.hpp): a stage register is a new paged
// function on the same kind of store (a file_store recipe of a directory gives each its
// own file), with u's page and cache sizes; u is its own expression operand.
template <class T, class Tag>
paged_grid_function<T, Tag> similar(const paged_grid_function<T, Tag>& u, std::string name) {
  return paged_grid_function<T, Tag>(u.owned_size(), u.size() - u.owned_size(), u.recipe(),
                                     u.options(), std::move(name));
}
template <class T, class Tag>
const paged_grid_function<T, Tag>& values(const paged_grid_function<T, Tag>& u) {
  return u;
}

}  // namespace funcmesh
