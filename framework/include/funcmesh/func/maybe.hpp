// maybe<T>: a value or nothing (an optional that crosses to the device by value), and
// the second instance of Functor, Applicative and Monad beside grid expressions.
#pragma once

#include <type_traits>

#include <funcmesh/func/curry.hpp>
#include <funcmesh/func/typeclasses.hpp>

namespace funcmesh {

// The value lives in a union, so T needs no default constructor (capturing lambdas have
// none) and maybe<T> stays trivially copyable when T is.
template <class T>
struct maybe {
  static_assert(std::is_trivially_destructible_v<T>, "maybe<T> holds trivially destructible T");
  union {
    char none_;
    T value;
  };
  bool has_value;

  FUNCMESH_DEVICE constexpr maybe() : none_(0), has_value(false) {}
  FUNCMESH_DEVICE constexpr explicit maybe(T v) : value(v), has_value(true) {}

  FUNCMESH_DEVICE constexpr explicit operator bool() const { return has_value; }
  FUNCMESH_DEVICE friend constexpr bool operator==(const maybe& a, const maybe& b) {
    if (a.has_value != b.has_value) return false;
    return !a.has_value || a.value == b.value;
  }
};

template <class T>
FUNCMESH_DEVICE constexpr maybe<T> just(T value) {
  return maybe<T>(value);
}
template <class T>
FUNCMESH_DEVICE constexpr maybe<T> nothing() {
  return maybe<T>();
}

template <class T>
inline constexpr bool is_maybe_v = false;
template <class T>
inline constexpr bool is_maybe_v<maybe<T>> = true;

template <class T>
struct functor_impl<maybe<T>> {
  static constexpr bool enabled = true;
  using value_type = T;
  template <class F>
  FUNCMESH_DEVICE static constexpr auto fmap(const F& f, const maybe<T>& x) {
    using result = decltype(apply_partially(f, x.value));
    return x.has_value ? just(apply_partially(f, x.value)) : nothing<result>();
  }
};

template <class T>
struct applicative_impl<maybe<T>> {
  static constexpr bool enabled = true;
  FUNCMESH_DEVICE static constexpr maybe<T> pure(T value) { return just(value); }
  template <class X>
  FUNCMESH_DEVICE static constexpr auto apply(const maybe<T>& functions, const maybe<X>& x) {
    using result = decltype(apply_partially(functions.value, x.value));
    return functions.has_value && x.has_value ? just(apply_partially(functions.value, x.value))
                                              : nothing<result>();
  }
};

template <class T>
struct monad_impl<maybe<T>> {
  static constexpr bool enabled = true;
  // k: T -> maybe<U>.
  template <class K>
  FUNCMESH_DEVICE static constexpr auto bind(const maybe<T>& m, const K& k) {
    using result = decltype(k(m.value));
    static_assert(is_maybe_v<result>, "funcmesh: m >>= k on a maybe needs k to return a maybe");
    return m.has_value ? k(m.value) : result{};
  }
};

}  // namespace funcmesh
