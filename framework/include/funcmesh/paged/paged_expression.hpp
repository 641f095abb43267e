// The expression leaves of paged grid functions: paged_read (u in an expression, before
// binding) and paged_view (what the loop body reads: the page's window, or the cache for
// indices outside it), and pr(u) for neighbour reads of a paged function.
#pragma once

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/core/index.hpp>
#include <funcmesh/expr/grid_expression.hpp>
#include <funcmesh/paged/detail/page_binding.hpp>
#include <funcmesh/paged/detail/page_reduce.hpp>  // sum(u), min(u), ...: page by page
#include <funcmesh/paged/paged_array.hpp>

namespace funcmesh {

template <class T, class Tag>
class paged_grid_function;

namespace detail {
// The window a paged leaf binds to in this loop; throws paged_error, naming the function,
// when the loop is not a page-by-page one (binder.pages() is null).
page_window bind_paged(const binder& b, const paged_function_base& function);
}  // namespace detail

// After binding: element i of the page being computed from its window (the loop's own
// index always is there), any other index through the function's cache (neighbours,
// proxies: get, thread-safe, bounds-checked). An error there propagates as from any loop
// body (the OpenMP backend rethrows a worker's exception on the calling thread).
template <class T, class Tag>
class paged_view : public grid_expression<paged_view<T, Tag>> {
 public:
  using tag_type = Tag;
  using value_type = T;
  static constexpr bool serial_only = false;
  static constexpr index_t work = 1;

  paged_view(detail::page_window window, const paged_array<T>* array)
      : window_(static_cast<const T*>(window.data)),
        begin_(window.begin),
        end_(window.end),
        complete_(window.complete),
        array_(array) {}

  // FUNCMESH_DEVICE only so that nvcc does not warn in the expression nodes that call it:
  // paged loops run on host executors, never in a kernel. complete_ is the same for every
  // index of the loop: the compiler unswitches on it, so a function read only at the
  // loop's own indices costs a plain load in a vectorized loop.
  FUNCMESH_DEVICE T operator[](index_t i) const {
    if (complete_ || (i >= begin_ && i < end_)) return window_[i - begin_];
    return through_cache(array_, i);
  }
  paged_view bind_to(binder&) const { return *this; }
  template <class Visitor>
  void visit(Visitor&) const {}

 private:
  // Static, out of line and given values only: the view's address never escapes into it,
  // so a copy of the view in a loop keeps its fields in registers.
  FUNCMESH_DEVICE static T through_cache(const paged_array<T>* array, index_t i) {
#if FUNCMESH_IN_DEVICE_CODE
    (void)array;
    (void)i;
    return T{};
#else
    return read_through_cache(array, i);
#endif
  }
  [[gnu::noinline]] static T read_through_cache(const paged_array<T>* array, index_t i) {
    return array->get(i);
  }

  const T* window_;
  index_t begin_;
  index_t end_;
  bool complete_;
  const paged_array<T>* array_;
};

// Before binding: a paged grid function read at the index being computed (or, inside a
// face loop, at neighbours: the loop's visitor tells the two apart).
template <class T, class Tag>
class paged_read : public grid_expression<paged_read<T, Tag>> {
 public:
  using tag_type = Tag;
  using value_type = T;
  static constexpr bool serial_only = false;
  static constexpr index_t work = 1;

  // `halo`: set when the function is a paged distributed function's local values (its
  // halo state, for the assignment that visits the read).
  explicit paged_read(const paged_grid_function<T, Tag>& function, halo_state_base* halo = nullptr)
      : function_(&function), halo_(halo) {}

  paged_view<T, Tag> bind_to(binder& b) const {
    return {detail::bind_paged(b, *function_), &function_->array()};
  }
  template <class Visitor>
  void visit(Visitor& visitor) const {
    grid_read read = function_->read_of(read_mode::own_index);
    read.halo = halo_;
    visitor(read);
  }

 private:
  const paged_grid_function<T, Tag>* function_;
  halo_state_base* halo_;
};

// pure(pr(u)) for a paged u: a value a user's function indexes anywhere (u[j]); reads
// outside the page being computed go through u's cache.
template <class T, class Tag>
struct paged_proxy_source {
  const paged_grid_function<T, Tag>* function;
  halo_state_base* halo = nullptr;  // a paged distributed function's
};

template <class T, class Tag>
paged_proxy_source<T, Tag> pr(const paged_grid_function<T, Tag>& function) {
  return {&function};
}

namespace detail {
template <class T, class Tag>
struct bound_value<paged_proxy_source<T, Tag>> {
  static paged_view<T, Tag> bind_to(const paged_proxy_source<T, Tag>& source, binder& b) {
    return {bind_paged(b, *source.function), &source.function->array()};
  }
  template <class Visitor>
  static void visit(const paged_proxy_source<T, Tag>& source, Visitor& visitor) {
    grid_read read = source.function->read_of(read_mode::proxy);
    read.halo = source.halo;
    visitor(read);
  }
};
}  // namespace detail

}  // namespace funcmesh
