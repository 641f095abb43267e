// Reconstruction at face centroids and the face-loop fluxes built on it: a numerical flux
// solver(left, right, n) turned into what sum_over_faces adds to a cell, with first-order,
// linear (MUSCL, from a cell gradient, limited or not) or slope-limited face values.
#pragma once

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/expr/zip_expr.hpp>
#include <funcmesh/faces/face_set.hpp>
#include <funcmesh/fv/detail/gradient_algebra.hpp>
#include <funcmesh/fv/limiters.hpp>

namespace funcmesh::fv {

// A cell's value and gradient, the input of a second-order face loop: with_gradient(u, g).
template <class T, class G>
struct reconstructed {
  T value;
  G gradient;
};

namespace detail {
struct pair_with_gradient {
  template <class T, class G>
  FUNCMESH_DEVICE constexpr reconstructed<T, G> operator()(const T& value,
                                                           const G& gradient) const {
    return {value, gradient};
  }
};
template <class T>
FUNCMESH_DEVICE constexpr const T& value_of(const T& value) {
  return value;
}
template <class T, class G>
FUNCMESH_DEVICE constexpr const T& value_of(const reconstructed<T, G>& cell) {
  return cell.value;
}
}  // namespace detail

// The pairs (u, g) at every cell, for a face loop that reconstructs: both are read at
// neighbours, so both halos are exchanged.
template <class U, class G>
auto with_gradient(const U& u, const G& gradient) {
  return make_zip(detail::pair_with_gradient{}, u, gradient);
}

// How a face value is made from a cell (its value, or value and gradient), the other
// cell's value, the offset from the cell's centroid to the face centroid and the step to
// the other cell's centroid. On the domain boundary there is no other cell: face_value is
// then called with `other` = the cell's own value and `step` zero.

// First order: the cell's value.
struct first_order {
  template <class C, class T>
  FUNCMESH_DEVICE constexpr T face_value(const C& cell, const T&, const vec<double, 3>&,
                                         const vec<double, 3>&) const {
    return detail::value_of(cell);
  }
};

// Linear (MUSCL): u + g . r, r the offset to the face centroid. Exact for linear fields with
// an exact gradient; with a limited gradient (limited_gradient) within the cell's bounds.
template <int D>
struct linear {
  template <class T, class G>
  FUNCMESH_DEVICE constexpr T face_value(const reconstructed<T, G>& cell, const T&,
                                         const vec<double, 3>& offset,
                                         const vec<double, 3>&) const {
    return cell.value + detail::increment<D>(cell.gradient, offset);
  }
};

// A slope limiter (minmod, van_leer, van_albada, superbee, mc) on the reconstructed
// differences, component by component: u_c + phi(r) (u_n - u_c) / 2 with r from the
// gradient's projected difference (slope_limited_face_value). Always between the two cells'
// values. On the domain boundary (no neighbour) the face value is the cell's (first order
// there: the stated rule).
template <int D, class Phi>
struct slope_limited {
  Phi phi{};
  template <class T, class G>
  FUNCMESH_DEVICE constexpr T face_value(const reconstructed<T, G>& cell, const T& other,
                                         const vec<double, 3>&, const vec<double, 3>& step) const {
    const T delta = detail::increment<D>(cell.gradient, step);
    if constexpr (requires { T::size(); }) {
      T r{};
      for (int k = 0; k < T::size(); ++k) {
        r[k] = slope_limited_face_value(phi, cell.value[k], other[k], delta[k]);
      }
      return r;
    } else {
      return slope_limited_face_value(phi, cell.value, other, delta);
    }
  }
};

// The solver's variables from the reconstructed ones (e.g. conserved from primitive, when
// the scheme reconstructs primitive variables); by default the same.
struct same_variables {
  template <class T>
  FUNCMESH_DEVICE constexpr const T& operator()(const T& value) const {
    return value;
  }
};

namespace detail {
// solver(left, right, face) where the solver reads the face (a flow that depends on the
// position: upwind_flux with a . n at the face centroid), else solver(left, right, n).
template <class Solver, class L, class R>
FUNCMESH_DEVICE auto solve(const Solver& solver, const L& left, const R& right,
                           const face_view& f) {
  if constexpr (requires { solver(left, right, f); }) {
    return solver(left, right, f);
  } else {
    return solver(left, right, f.normal);
  }
}
}  // namespace detail

// What a face adds to the cell holding `self` for sum_over_faces: -A solver(left, right, n),
// left and right the two sides' face values, n out of self (so the face loop's sum divided by
// the volume is du/dt). A solver may take the face_view instead of n (seen from self).
// Antisymmetric whenever the solver is (canonical_orientation): wrap it in
// funcmesh::antisymmetric(...) and each face is evaluated once on the host.
template <class Solver, class Reconstruction = first_order, class Convert = same_variables>
struct face_flux {
  Solver solver;
  Reconstruction reconstruction{};
  Convert convert{};
  template <class C>
  FUNCMESH_DEVICE auto operator()(const C& self, const C& other, const face_view& f) const {
    const vec<double, 3> step = f.step();
    const auto left =
        convert(reconstruction.face_value(self, detail::value_of(other), f.self_offset, step));
    const auto right =
        convert(reconstruction.face_value(other, detail::value_of(self), f.other_offset, -step));
    return -f.area * detail::solve(solver, left, right, f);
  }
};

// The same on a domain-boundary face: the inside face value (reconstructed as inside the
// domain), the outside state outside(inside, face) in the solver's variables (a boundary
// condition: boundary_table, euler_boundary.hpp), and -A solver(inside, outside, n).
template <class Solver, class Outside, class Reconstruction = first_order,
          class Convert = same_variables>
struct boundary_face_flux {
  Solver solver;
  Outside outside;
  Reconstruction reconstruction{};
  Convert convert{};
  template <class C>
  FUNCMESH_DEVICE auto operator()(const C& self, const face_view& f) const {
    const vec<double, 3> none{{0.0, 0.0, 0.0}};
    const auto inside =
        convert(reconstruction.face_value(self, detail::value_of(self), f.self_offset, none));
    return -f.area * detail::solve(solver, inside, outside(inside, f), f);
  }
};

}  // namespace funcmesh::fv
