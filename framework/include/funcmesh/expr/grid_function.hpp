// grid_function<T, Tag>: values of type T on the entities of one grid kind (cells by
// default), stored in the memory layer: owned values first, then halo copies that the
// comm layer fills. Assigning an expression runs the one parallel loop (owned range by
// default); copies are deep, moves and swap are cheap.
#pragma once

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <funcmesh/exec/backend.hpp>
#include <funcmesh/expr/assign.hpp>
#include <funcmesh/expr/grid_expression.hpp>
#include <funcmesh/expr/grid_function_base.hpp>
#include <funcmesh/memory/array.hpp>

namespace funcmesh {

template <class T, class Tag = cells>
class grid_function : public grid_function_base {
  static_assert(std::is_trivially_copyable_v<T>,
                "grid_function<T>: T moves between host and devices as bytes: it must be "
                "trivially copyable (a number, a vec<T, N>, or a plain struct)");

 public:
  using value_type = T;
  using tag_type = Tag;

  grid_function() : grid_function(0) {}
  explicit grid_function(index_t owned_size, std::string name = {})
      : grid_function(owned_size, 0, std::move(name)) {}
  // owned_size values computed here, followed by halo_size copies of other ranks' values.
  grid_function(index_t owned_size, index_t halo_size, std::string name)
      : grid_function_base(std::move(name), owned_size, owned_size + halo_size, sizeof(T)) {}

  grid_function(const grid_function&) = default;
  grid_function(grid_function&&) noexcept = default;
  // A value copy of every value, owned and halo (no loop, no executor).
  grid_function& operator=(const grid_function&) = default;
  grid_function& operator=(grid_function&&) noexcept = default;
  ~grid_function() = default;

  // u = e, u += e, ...: one loop over the owned range on the default executor.
  template <class E, class Compiler = exec::this_compiler>
  requires(Expression<E> || Scalar<E>) grid_function& operator=(const E& expression) {
    run<Compiler>(run_options{}, set(*this, expression));
    return *this;
  }
  template <class E, class Compiler = exec::this_compiler>
  requires(Expression<E> || Scalar<E>) grid_function& operator+=(const E& expression) {
    run<Compiler>(run_options{}, add_to(*this, expression));
    return *this;
  }
  template <class E, class Compiler = exec::this_compiler>
  requires(Expression<E> || Scalar<E>) grid_function& operator-=(const E& expression) {
    run<Compiler>(run_options{}, subtract_from(*this, expression));
    return *this;
  }
  template <class E, class Compiler = exec::this_compiler>
  requires(Expression<E> || Scalar<E>) grid_function& operator*=(const E& expression) {
    run<Compiler>(run_options{}, multiply_by(*this, expression));
    return *this;
  }
  template <class E, class Compiler = exec::this_compiler>
  requires(Expression<E> || Scalar<E>) grid_function& operator/=(const E& expression) {
    run<Compiler>(run_options{}, divide_by(*this, expression));
    return *this;
  }
  // u.assign(e, {.on = executor::openmp(), .over = iteration_space::owned_and_halo()}).
  template <class E, class Compiler = exec::this_compiler>
  void assign(const E& expression, const run_options& options) {
    run<Compiler>(options, set(*this, expression));
  }

  // Host (or other space) access to every value, owned and halo; writing counts as a write.
  read_access<T> read(memory_space space = host_space) const { return values().read(space); }
  write_access<T> write(memory_space space = host_space) {
    mark_written();
    return values().write(space);
  }
  std::vector<T> to_vector() const { return values().to_vector(); }
  // The values as an array sharing this function's storage.
  array<T> values() const { return array<T>(storage()); }

  friend void swap(grid_function& a, grid_function& b) noexcept { a.swap_with(b); }
};

}  // namespace funcmesh
