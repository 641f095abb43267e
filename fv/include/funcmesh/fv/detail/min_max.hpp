// std::fmin and std::fmax without their library call: GCC calls libm for them unless
// -ffinite-math-only, and a call in a face loop spills every live register around it
// (bench/fv: the limiter pass spent most of its time so).
#pragma once

#include <funcmesh/core/device_macros.hpp>

namespace funcmesh::fv::detail {

// The smaller of a and b; a NaN operand is ignored (the other is returned), as std::fmin
// does; of -0 and +0, a. Two selects, no branch (a limiter's comparisons do not predict).
FUNCMESH_DEVICE constexpr double min_number(double a, double b) {
  const double smaller = b < a ? b : a;
  return a != a ? b : smaller;
}
// The larger of a and b, likewise.
FUNCMESH_DEVICE constexpr double max_number(double a, double b) {
  const double larger = b > a ? b : a;
  return a != a ? b : larger;
}

}  // namespace funcmesh::fv::detail
