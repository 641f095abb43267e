// Canonical orientation of a face: a rule, decided from the face normal alone, that makes
// any numerical flux bitwise antisymmetric, flux(right, left, -n) == -flux(left, right, n),
// however its formula rounds. The gather loops evaluate a face once from each side.
#pragma once

#include <cmath>

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/core/vec.hpp>

namespace funcmesh::fv {

// Whether n is the canonical one of the pair {n, -n}: the sign bit of its first nonzero
// component is clear (and, for the degenerate zero normal, the sign bit of n[0]).
// Negation flips exactly the sign bits, so exactly one of n and -n is canonical, for every
// bit pattern (signed zeros and NaNs included). Relies on IEEE semantics: not valid
// under -ffast-math.
FUNCMESH_DEVICE inline bool is_canonical(const vec<double, 3>& n) {
  for (int k = 0; k < 3; ++k) {
    if (n[k] != 0.0) return !std::signbit(n[k]);
  }
  return !std::signbit(n[0]);
}

// Wraps a numerical flux solver(left, right, n) -> U (the normal flux out of left through
// a face of unit normal n pointing from left to right): the wrapper evaluates the solver
// in the canonical orientation only, as solver(left, right, n) or -solver(right, left, -n).
// Both sides of a face then run the same arithmetic on the same operands, and negation is
// exact, so the two results are exact negatives of each other: what one cell loses the
// other gains, bit for bit. U needs unary minus (double, vec<double, N>).
//
// Use it for every Riemann solver whose formula or physics is not symmetric term by term
// in rounding (HLLC's star states, Roe's averages written in one order, rotated frames).
//
// The solver is called from one place, on operands chosen by selects, not from two
// branches: with FMA contraction (GCC's -ffp-contract=fast, the default of -std=gnu++20,
// with -march=native; nvcc's -fmad=true) two inlined copies of one formula may be
// contracted differently and round differently, which broke the guarantee in a test
// (GCC 12, -O3 -march=native). Contraction stays the compiler's choice: for a guarantee
// that holds whatever it chooses, compile the flux loops with contraction off.
template <class Solver>
struct canonical_orientation {
  Solver solver;

  FUNCMESH_EXEC_CHECK_DISABLE
  template <class U>
  FUNCMESH_DEVICE U operator()(const U& left, const U& right, const vec<double, 3>& n) const {
    const bool canonical = is_canonical(n);
    const vec<double, 3> m = canonical ? n : -n;
    const U f = solver(canonical ? left : right, canonical ? right : left, m);
    return canonical ? f : -f;
  }
};

template <class Solver>
canonical_orientation(Solver) -> canonical_orientation<Solver>;

}  // namespace funcmesh::fv
