// Functor, Applicative and Monad as customization points: a type joins a class by
// specializing functor_impl / applicative_impl / monad_impl (as funcprog2 does with its
// trait classes). fmap, apply and bind, and the operators f / x, fs * x and m >>= k,
// dispatch through them.
#pragma once

#include <type_traits>
#include <utility>

#include <funcmesh/func/curry.hpp>
#include <funcmesh/func/function.hpp>

namespace funcmesh {

// Specialize with `static constexpr bool enabled = true;` and
//   functor_impl:     using value_type; static auto fmap(const F& f, const T& x);
//   applicative_impl: static auto apply(const T& functions, const X& x);
//   monad_impl:       static auto bind(const T& m, const K& k);
// The primary templates are empty: the type is not an instance.
template <class T, class Enable = void>
struct functor_impl {};
template <class T, class Enable = void>
struct applicative_impl {};
template <class T, class Enable = void>
struct monad_impl {};

template <class T>
concept Functor = functor_impl<std::remove_cvref_t<T>>::enabled;
template <class T>
concept Applicative = Functor<T> && applicative_impl<std::remove_cvref_t<T>>::enabled;
template <class T>
concept Monad = Applicative<T> && monad_impl<std::remove_cvref_t<T>>::enabled;

// The type of the values a functor holds (a grid expression's value at an index).
template <Functor T>
using functor_value_t = typename functor_impl<std::remove_cvref_t<T>>::value_type;

// An applicative whose values are functions: the left operand of fs * x.
template <class T>
concept ApplicativeOfFunctions = Applicative<T> && is_function_v<functor_value_t<T>>;

// Named forms, for readers who do not speak Haskell.
FUNCMESH_EXEC_CHECK_DISABLE
template <Function F, Functor X>
FUNCMESH_DEVICE constexpr auto fmap(const F& f, const X& x) {
  return functor_impl<std::remove_cvref_t<X>>::fmap(f, x);
}
// fmap(f, x) of a plain lambda or functor: made a funcmesh function first (f / x needs
// that explicitly, _(f) / x, so that / between numbers stays arithmetic).
FUNCMESH_EXEC_CHECK_DISABLE
template <class F, Functor X>
requires(!Function<F> && detail::has_single_call_operator<F>) FUNCMESH_DEVICE
    constexpr auto fmap(const F& f, const X& x) {
  return functor_impl<std::remove_cvref_t<X>>::fmap(_(f), x);
}
FUNCMESH_EXEC_CHECK_DISABLE
template <ApplicativeOfFunctions FS, class X>
FUNCMESH_DEVICE constexpr auto apply(const FS& functions, const X& x) {
  return applicative_impl<std::remove_cvref_t<FS>>::apply(functions, x);
}
FUNCMESH_EXEC_CHECK_DISABLE
template <Monad M, class K>
FUNCMESH_DEVICE constexpr auto bind(const M& m, const K& k) {
  return monad_impl<std::remove_cvref_t<M>>::bind(m, k);
}

// f / x: fmap.
FUNCMESH_EXEC_CHECK_DISABLE
template <Function F, Functor X>
FUNCMESH_DEVICE constexpr auto operator/(const F& f, const X& x) {
  return fmap(f, x);
}
// fs * x: apply (an applicative of functions on the left).
FUNCMESH_EXEC_CHECK_DISABLE
template <ApplicativeOfFunctions FS, class X>
FUNCMESH_DEVICE constexpr auto operator*(const FS& functions, const X& x) {
  return apply(functions, x);
}
// m >>= k: bind.
FUNCMESH_EXEC_CHECK_DISABLE
template <Monad M, class K>
FUNCMESH_DEVICE constexpr auto operator>>=(const M& m, const K& k) {
  return bind(m, k);
}

}  // namespace funcmesh
