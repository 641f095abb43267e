// The scheme concept: anything with step(u, rhs, t, dt, work) that advances u by dt in
// place, using the stage registers in work, and says how many registers it needs
// (`storage`, a static constant or a member function). name() and order are optional. A
// scheme that computes its step's residual itself takes one more argument (see below).
#pragma once

#include <concepts>
#include <cstddef>
#include <string>

#include <funcmesh/time/rhs.hpp>
#include <funcmesh/time/state.hpp>

namespace funcmesh::time {

// The registers a scheme needs besides u itself.
template <class Scheme>
std::size_t storage_of(const Scheme& scheme) {
  if constexpr (requires { scheme.storage(); }) {
    return static_cast<std::size_t>(scheme.storage());
  } else {
    static_assert(
        requires { Scheme::storage; },
        "funcmesh::time: a scheme says how many stage registers it needs, as "
        "`static constexpr int storage = n;` or `int storage() const`");
    return static_cast<std::size_t>(Scheme::storage);
  }
}

template <class Scheme>
std::string name_of(const Scheme& scheme) {
  if constexpr (requires { scheme.name(); }) {
    return std::string(scheme.name());
  } else {
    return "a user scheme";
  }
}

// Scheme can advance state S with right-hand side F by step(u, rhs, t, dt, work).
template <class Scheme, class S, class F>
concept plain_scheme_for = state<S> && rhs_for<F, S> &&
    requires(const Scheme& scheme, S& u, const rhs_function<F>& rhs, stage_storage<S>& work) {
  scheme.step(u, rhs, 0.0, 1.0, work);
  storage_of(scheme);
};

// A scheme whose step yields its own residual as a by-product (a pseudo-time iteration's
// update norm, such as Airfoil's rms, from the step's fluxes: the driver's residual_norm
// would need a copy of u and other bits): step(u, rhs, t, dt, work, wanted) returns it.
// The driver passes wanted = true at the steps where a callback fires and hands the value
// to them as step_info::residual; elsewhere the scheme may skip its cost and return 0.
template <class Scheme, class S, class F>
concept residual_scheme_for = state<S> && rhs_for<F, S> &&
    requires(const Scheme& scheme, S& u, const rhs_function<F>& rhs, stage_storage<S>& work) {
  { scheme.step(u, rhs, 0.0, 1.0, work, true) } -> std::convertible_to<double>;
  storage_of(scheme);
};

// Scheme can advance state S with right-hand side F (either form of step).
template <class Scheme, class S, class F>
concept scheme_for = plain_scheme_for<Scheme, S, F> || residual_scheme_for<Scheme, S, F>;

}  // namespace funcmesh::time
