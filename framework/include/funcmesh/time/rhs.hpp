// The right-hand side as schemes see it: rhs(v, t) returning an expression, whichever of
// rhs(v) (autonomous problems) or rhs(v, t) the user wrote. Schemes only call the
// two-argument form, so a scheme never cares which the user chose.
#pragma once

#include <concepts>
#include <type_traits>

namespace funcmesh::time {

template <class F, class S>
concept rhs_for = std::invocable<F&, const S&, double> || std::invocable<F&, const S&>;

template <class F>
class rhs_function {
 public:
  explicit rhs_function(F& f) : f_(&f) {}

  // Returns the user's expression by value: it refers to v (and whatever the user
  // captured), never to a temporary of this call.
  template <class S>
  requires rhs_for<F, S>
  decltype(auto) operator()(const S& v, double t) const {
    if constexpr (std::invocable<F&, const S&, double>) {
      return (*f_)(v, t);
    } else {
      return (*f_)(v);
    }
  }

 private:
  F* f_;
};

}  // namespace funcmesh::time
