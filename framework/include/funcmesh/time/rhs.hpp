// The right-hand side as schemes see it: rhs(v, t) returning an expression, whichever of
// rhs(v) (autonomous problems) or rhs(v, t) the user wrote. Schemes only call the
// two-argument form, so a scheme never cares which the user chose.
#pragma once

#include <concepts>
#include <type_traits>
#include <utility>

#include <funcmesh/expr/grid_expression.hpp>

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

namespace detail {

// The values rhs(u) gives, or void when it gives no grid expression.
template <class S, class F>
auto rhs_values() {
  if constexpr (rhs_for<F, S>) {
    using result = std::remove_cvref_t<decltype(std::declval<rhs_function<F>&>()(
        std::declval<const S&>(), 0.0))>;
    if constexpr (Expression<result> && Expression<S>) {
      return std::type_identity<std::pair<expr_value_t<S>, expr_value_t<result>>>{};
    } else {
      return std::type_identity<void>{};
    }
  } else {
    return std::type_identity<void>{};
  }
}
template <class StateValue, class RhsValue>
inline constexpr bool rhs_values_fit_state = std::is_convertible_v<RhsValue, StateValue>;

// The rhs's values must be the state's (du/dt has u's type): a scalar flux on a vec
// state is this error, named where it is, instead of a scheme that cannot step.
template <class S, class F>
constexpr bool check_rhs_values() {
  using found = typename decltype(rhs_values<S, F>())::type;
  if constexpr (std::is_void_v<found>) {
    return true;  // not expressions: the scheme concept decides
  } else {
    using state_value = typename found::first_type;
    using rhs_value = typename found::second_type;
    static_assert(rhs_values_fit_state<state_value, rhs_value>,
                  "funcmesh::time::driver: rhs(u) gives values of another type than the state "
                  "u holds (du/dt has u's type: a scalar flux on a vec state?); the note below "
                  "names the state's value type, then the rhs's");
    return rhs_values_fit_state<state_value, rhs_value>;
  }
}

}  // namespace detail

}  // namespace funcmesh::time
