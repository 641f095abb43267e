// Currying: f << a binds f's first argument and returns a function of the rest; binding
// the last argument gives a zero-argument function. invoke_f0 calls zero-argument
// functions (and returns anything else unchanged); remove_f0_t is its type.
#pragma once

#include <tuple>
#include <type_traits>
#include <utility>

#include <funcmesh/func/function.hpp>

namespace funcmesh {

namespace detail {
template <class R, class Tuple>
struct drop_first_signature;
template <class R, class First, class... Rest>
struct drop_first_signature<R, std::tuple<First, Rest...>> {
  using type = R(Rest...);
};
}  // namespace detail

// f with its first argument fixed to a stored value (the argument's type, decayed).
template <Function F>
class curried : public function_marker {
  using traits = signature_traits<signature_of_t<F>>;
  static_assert(traits::arity > 0, "funcmesh: f << a needs a function of at least one argument");

 public:
  using bound_type = std::remove_cvref_t<argument_t<F, 0>>;
  using signature = typename detail::drop_first_signature<typename traits::result_type,
                                                          typename traits::arguments>::type;

  constexpr curried() = default;
  FUNCMESH_DEVICE constexpr curried(F function, bound_type first)
      : function_(function), first_(first) {}

  template <class... Rest>
  FUNCMESH_DEVICE constexpr decltype(auto) operator()(Rest&&... rest) const {
    return function_(first_, static_cast<Rest&&>(rest)...);
  }

  FUNCMESH_DEVICE constexpr const F& function() const { return function_; }
  FUNCMESH_DEVICE constexpr const bound_type& bound() const { return first_; }

 private:
  F function_;
  bound_type first_;
};

template <Function F, class A>
FUNCMESH_DEVICE constexpr auto operator<<(const F& f, A&& argument) {
  using bound_type = typename curried<F>::bound_type;
  static_assert(std::is_convertible_v<A&&, bound_type>,
                "funcmesh: f << a: a does not convert to f's first argument type");
  return curried<F>(f, static_cast<bound_type>(static_cast<A&&>(argument)));
}

// Zero-argument functions.
template <class T>
inline constexpr bool is_f0_v = [] {
  if constexpr (is_function_v<T>) {
    return arity_v<T> == 0;
  } else {
    return false;
  }
}();

template <class T>
FUNCMESH_DEVICE constexpr decltype(auto) invoke_f0(T&& value) {
  if constexpr (is_f0_v<std::remove_cvref_t<T>>) {
    return value();
  } else {
    return static_cast<T&&>(value);
  }
}

template <class T>
using remove_f0_t = std::remove_cvref_t<decltype(invoke_f0(std::declval<T>()))>;

// invoke_f0(f << a1 << ... << ak): f applied to k arguments. That is f's result when k is
// its arity (called directly: no curried objects in a kernel), a function of the rest
// when k is smaller, and the result applied to the remaining arguments when f returns a
// function and k is larger.
template <class F>
FUNCMESH_DEVICE constexpr auto apply_partially(const F& f) {
  return invoke_f0(f);
}

template <class F, class A, class... Rest>
FUNCMESH_DEVICE constexpr auto apply_partially(const F& f, A&& first, Rest&&... rest) {
  static_assert(is_function_v<F>,
                "funcmesh: too many arguments: the value being applied is not a function");
  if constexpr (arity_v<F> == 1 + sizeof...(Rest)) {
    return f(static_cast<A&&>(first), static_cast<Rest&&>(rest)...);
  } else if constexpr (arity_v<F> == 0) {
    return apply_partially(f(), static_cast<A&&>(first), static_cast<Rest&&>(rest)...);
  } else {
    return apply_partially(f << static_cast<A&&>(first), static_cast<Rest&&>(rest)...);
  }
}

}  // namespace funcmesh
