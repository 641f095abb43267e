// The scheme concept: anything with step(u, rhs, t, dt, work) that advances u by dt in
// place, using the stage registers in work, and says how many registers it needs
// (`storage`, a static constant or a member function). name() and order are optional.
#pragma once

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

// Scheme can advance state S with right-hand side F.
template <class Scheme, class S, class F>
concept scheme_for = state<S> && rhs_for<F, S> &&
    requires(const Scheme& scheme, S& u, const rhs_function<F>& rhs, stage_storage<S>& work) {
  scheme.step(u, rhs, 0.0, 1.0, work);
  storage_of(scheme);
};

}  // namespace funcmesh::time
