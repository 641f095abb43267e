// function<F>: a callable made a funcmesh function by _(): held by value (no type
// erasure, same size as the callable), const, callable on host and device, with its
// signature known (result_of_t, argument_t, arity_v) so that it can be curried and composed.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include <funcmesh/core/device_macros.hpp>

namespace funcmesh {

namespace detail {
// The signature of a callable with exactly one non-template operator().
template <class Member>
struct member_signature;
template <class C, class R, class... Args>
struct member_signature<R (C::*)(Args...) const> {
  using type = R(Args...);
};
template <class C, class R, class... Args>
struct member_signature<R (C::*)(Args...)> {
  using type = R(Args...);
};
template <class C, class R, class... Args>
struct member_signature<R (C::*)(Args...) const noexcept> {
  using type = R(Args...);
};
template <class C, class R, class... Args>
struct member_signature<R (C::*)(Args...) noexcept> {
  using type = R(Args...);
};

template <class F>
concept has_single_call_operator = requires {
  &F::operator();
};
}  // namespace detail

// Every funcmesh function type (function, curried, composed) derives from this marker
// and names its signature.
struct function_marker {};

template <class F>
inline constexpr bool is_function_v = std::is_base_of_v<function_marker, std::remove_cvref_t<F>>;

template <class F>
concept Function = is_function_v<F>;

template <class Signature>
struct signature_traits;
template <class R, class... Args>
struct signature_traits<R(Args...)> {
  using result_type = R;
  using arguments = std::tuple<Args...>;
  static constexpr std::size_t arity = sizeof...(Args);
};

template <Function F>
using signature_of_t = typename std::remove_cvref_t<F>::signature;
template <Function F>
using result_of_t = typename signature_traits<signature_of_t<F>>::result_type;
template <Function F, std::size_t K>
using argument_t = std::tuple_element_t<K, typename signature_traits<signature_of_t<F>>::arguments>;
template <Function F>
inline constexpr std::size_t arity_v = signature_traits<signature_of_t<F>>::arity;

template <class F,
          class Signature = typename detail::member_signature<decltype(&F::operator())>::type>
class function;

// The callable is stored as the only member, so sizeof(function<F>) == sizeof(F) and a
// trivially copyable lambda stays trivially copyable: it can cross to the device by value.
template <class F, class R, class... Args>
class function<F, R(Args...)> : public function_marker {
 public:
  using signature = R(Args...);
  using callable_type = F;

  constexpr function() = default;
  FUNCMESH_DEVICE constexpr explicit function(F callable) : callable_(callable) {}

  FUNCMESH_EXEC_CHECK_DISABLE
  FUNCMESH_DEVICE constexpr R operator()(Args... args) const {
    return callable_(static_cast<Args&&>(args)...);
  }

  FUNCMESH_DEVICE constexpr const F& callable() const { return callable_; }

 private:
  F callable_;
};

// _(f): the funcmesh function for a lambda or functor whose operator() is not a template
// (its parameter types name the signature). A funcmesh function is returned unchanged.
template <class F>
FUNCMESH_DEVICE constexpr auto _(F callable) {
  if constexpr (is_function_v<F>) {
    return callable;
  } else {
    static_assert(detail::has_single_call_operator<F>,
                  "funcmesh::_(f): f needs exactly one operator() with concrete parameter types "
                  "(generic lambdas with auto parameters have no signature to deduce)");
    return function<F>(callable);
  }
}

}  // namespace funcmesh
