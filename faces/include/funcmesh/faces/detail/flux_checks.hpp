// Compile-time checks of the functions a face loop is given, so that a mistake is reported
// where it is made (the sum_over_faces call) with the signature expected, instead of deep
// in the loop's instantiation. Each check is a variable template whose arguments the
// compiler prints when it is false ("is_interior_flux_for<my_flux, double> evaluates to
// false"), which names the user's functor and the value type.
#pragma once

#include <type_traits>
#include <utility>

#include <funcmesh/expr/zip_expr.hpp>
#include <funcmesh/faces/face_set.hpp>
#include <funcmesh/func/function.hpp>

namespace funcmesh::detail {

// Whether detail::call(f, a...) gives a value, asked without instantiating the call (its
// deduced return type would make a wrong flux a hard error inside the check). A funcmesh
// function is called with all its arguments here (fewer would curry into a function,
// which is no flux); a plain functor or lambda through std::is_invocable.
template <class F, class... A>
constexpr bool calls_to_a_value() {
  if constexpr (is_function_v<F>) {
    if constexpr (arity_v<F> == sizeof...(A)) {
      return std::is_invocable_v<const F&, const A&...>;
    } else {
      return false;
    }
  } else {
    return std::is_invocable_v<const F&, const A&...>;
  }
}

template <class Flux, class U>
inline constexpr bool is_interior_flux_for = calls_to_a_value<Flux, U, U, face_view>();
template <class B, class U>
inline constexpr bool is_boundary_flux_for = calls_to_a_value<B, U, face_view>();

template <class F, class... A>
using call_result_t =
    std::remove_cvref_t<decltype(call(std::declval<const F&>(), std::declval<const A&>()...))>;

// V: the interior flux's result, the value every face of the sum adds.
template <class B, class U, class V>
constexpr bool boundary_result_fits() {
  if constexpr (is_boundary_flux_for<B, U>) {
    return std::is_convertible_v<call_result_t<B, U, face_view>, V>;
  } else {
    return true;  // reported by the signature check
  }
}
template <class B, class U, class V>
inline constexpr bool is_boundary_result_for = boundary_result_fits<B, U, V>();

// All of sum_over_faces's functions, each assertion on its own so that the first wrong
// one is named. Returns whether all are right (the caller then builds nothing more).
template <class U, class Flux, class... B>
constexpr bool check_face_fluxes() {
  static_assert(is_interior_flux_for<Flux, U>,
                "funcmesh::sum_over_faces: the interior flux must be callable as "
                "flux(T self, T other, const face_view& face), returning the value the face "
                "adds to the cell, where T is the value type of the summed expression (the "
                "note below names the flux type and T)");
  static_assert((is_boundary_flux_for<B, U> && ...),
                "funcmesh::sum_over_faces: a boundary flux (on(\"name\", b) or "
                "on_other_groups(b)) must be callable as b(T self, const face_view& face), "
                "where T is the value type of the summed expression (the note below names "
                "the flux types and T)");
  if constexpr (is_interior_flux_for<Flux, U>) {
    using V = call_result_t<Flux, U, U, face_view>;
    static_assert((is_boundary_result_for<B, U, V> && ...),
                  "funcmesh::sum_over_faces: a boundary flux returns a value that does not "
                  "convert to the interior flux's (every face of a sum adds one value type; "
                  "the note below names the boundary flux, T and the interior flux's result)");
    return (is_boundary_flux_for<B, U> && ...) && (is_boundary_result_for<B, U, V> && ...);
  } else {
    return false;
  }
}

template <class F, class U>
constexpr bool check_cell_face_function() {
  static_assert(is_boundary_flux_for<F, U>,
                "funcmesh::sum_over_cell_faces: the function must be callable as "
                "f(T cell_value, const face_view& face), where T is the value type of the "
                "expression given (the note below names the function type and T)");
  return is_boundary_flux_for<F, U>;
}

}  // namespace funcmesh::detail
