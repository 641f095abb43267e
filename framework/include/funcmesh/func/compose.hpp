// Composition: (g & f)(x...) == g(f(x...)). g takes one argument; a g that cannot accept
// f's result is a compile error that says so.
#pragma once

#include <type_traits>

#include <funcmesh/func/function.hpp>

namespace funcmesh {

template <Function G, Function F>
class composed : public function_marker {
  static_assert(arity_v<G> == 1,
                "funcmesh: in g & f, g must be a function of exactly one argument");
  static_assert(std::is_convertible_v<result_of_t<F>, argument_t<G, 0>>,
                "funcmesh: in g & f, g's argument type does not accept f's result type");

  template <class R, class Tuple>
  struct make_signature;
  template <class R, class... Args>
  struct make_signature<R, std::tuple<Args...>> {
    using type = R(Args...);
  };

 public:
  using signature =
      typename make_signature<result_of_t<G>,
                              typename signature_traits<signature_of_t<F>>::arguments>::type;

  constexpr composed() = default;
  FUNCMESH_DEVICE constexpr composed(G outer, F inner) : outer_(outer), inner_(inner) {}

  template <class... Args>
  FUNCMESH_DEVICE constexpr result_of_t<G> operator()(Args&&... args) const {
    return outer_(inner_(static_cast<Args&&>(args)...));
  }

 private:
  G outer_;
  F inner_;
};

template <Function G, Function F>
FUNCMESH_DEVICE constexpr composed<G, F> operator&(const G& g, const F& f) {
  return composed<G, F>(g, f);
}

}  // namespace funcmesh
