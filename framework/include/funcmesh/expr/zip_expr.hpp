// zip_expr<F, E...>: f applied at every index to the operands' values there. This one node
// is fmap (one operand), apply when the function is known (f / x * y * z flattens to
// zip(f, x, y, z), so the kernel calls f directly), zip_with, and every arithmetic and
// math operator.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include <funcmesh/expr/detail/pack.hpp>
#include <funcmesh/expr/grid_expression.hpp>
#include <funcmesh/func/curry.hpp>
#include <funcmesh/func/function.hpp>

namespace funcmesh {

// serial_only(f): f is not thread-safe; loops that call it run on one host thread.
template <Function F>
class serial_only_function : public function_marker {
 public:
  using signature = signature_of_t<F>;
  constexpr explicit serial_only_function(F function) : function_(function) {}
  template <class... Args>
  constexpr decltype(auto) operator()(Args&&... args) const {
    return function_(static_cast<Args&&>(args)...);
  }

 private:
  F function_;
};

template <class F>
constexpr auto serial_only(F function) {
  auto wrapped = _(function);
  return serial_only_function<decltype(wrapped)>(wrapped);
}

template <class F>
inline constexpr bool is_serial_only_v = false;
template <class F>
inline constexpr bool is_serial_only_v<serial_only_function<F>> = true;

// Cost units per call of f, for the thread policy: the library's operators say theirs
// (0 for arithmetic, 16 for transcendental functions); a user's function counts 4.
template <class F>
inline constexpr index_t work_of_v = 4;
template <class F>
requires requires { F::work; }
inline constexpr index_t work_of_v<F> = F::work;

namespace detail {
// A funcmesh function is applied with currying (it may be partially applied); the
// library's own operators are plain functors applied to all their operands.
template <class F, class... A>
FUNCMESH_DEVICE constexpr auto call(const F& f, A&&... arguments) {
  if constexpr (is_function_v<F>) {
    return apply_partially(f, static_cast<A&&>(arguments)...);
  } else {
    return f(static_cast<A&&>(arguments)...);
  }
}
}  // namespace detail

template <class F, class... E>
class zip_expr : public grid_expression<zip_expr<F, E...>> {
 public:
  using tag_type = common_tag_t<typename E::tag_type...>;
  using value_type = std::remove_cvref_t<decltype(detail::call(
      std::declval<const F&>(), std::declval<typename E::value_type>()...))>;
  static constexpr bool serial_only = is_serial_only_v<F> || (E::serial_only || ...);
  static constexpr index_t work = work_of_v<F> + (E::work + ... + 0);

  FUNCMESH_DEVICE constexpr zip_expr(F f, detail::pack<E...> operands)
      : function_(f), operands_(operands) {}

  FUNCMESH_DEVICE constexpr value_type operator[](index_t i) const {
    return at(i, std::index_sequence_for<E...>{});
  }

  auto bind_to(binder& b) const { return bind_all(b, std::index_sequence_for<E...>{}); }
  template <class Visitor>
  void visit(Visitor& visitor) const {
    visit_all(visitor, std::index_sequence_for<E...>{});
  }

  FUNCMESH_DEVICE constexpr const F& function() const { return function_; }
  FUNCMESH_DEVICE constexpr const detail::pack<E...>& operands() const { return operands_; }

 private:
  template <std::size_t... I>
  FUNCMESH_DEVICE constexpr value_type at(index_t i, std::index_sequence<I...>) const {
    return detail::call(function_, detail::get<I>(operands_)[i]...);
  }
  template <std::size_t... I>
  auto bind_all(binder& b, std::index_sequence<I...>) const {
    using bound = zip_expr<F, decltype(detail::get<I>(operands_).bind_to(b))...>;
    return bound(function_, detail::make_pack(detail::get<I>(operands_).bind_to(b)...));
  }
  template <class Visitor, std::size_t... I>
  void visit_all(Visitor& visitor, std::index_sequence<I...>) const {
    (detail::get<I>(operands_).visit(visitor), ...);
  }

  F function_;
  detail::pack<E...> operands_;
};

FUNCMESH_EXEC_CHECK_DISABLE
template <class F, class... E>
FUNCMESH_DEVICE constexpr auto make_zip(F f, const E&... operands) {
  return zip_expr<F, node_t<E>...>(f, detail::make_pack(as_node(operands)...));
}

// zip_with(f, x, y, ...): f applied to the operands' values at every index.
FUNCMESH_EXEC_CHECK_DISABLE
template <class F, Expression... E>
FUNCMESH_DEVICE constexpr auto zip_with(F f, const E&... operands) {
  return make_zip(_(f), operands...);
}

}  // namespace funcmesh
