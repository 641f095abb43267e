// Limiters for second-order reconstruction: slope limiters phi(r) applied to a face's
// reconstructed difference (minmod, van Leer, van Albada, superbee, MC), cell limiters in
// the multidimensional form (Barth-Jespersen, Venkatakrishnan), and their runtime names.
#pragma once

#include <cmath>
#include <string_view>

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/fv/detail/min_max.hpp>

namespace funcmesh::fv {

// ---------------------------------------------------------------------------------------
// Slope limiters phi(r). Each lies in the TVD region: phi(r) = 0 for r <= 0 and
// 0 <= phi(r) <= min(2 r, 2), and phi(1) = 1 (linear data is reconstructed exactly).
// Written so that r = +inf (a vanishing neighbour difference) gives a finite value.

struct minmod {
  FUNCMESH_DEVICE double operator()(double r) const {
    return detail::max_number(0.0, detail::min_number(1.0, r));
  }
};

// (r + |r|) / (1 + |r|), written for r > 0 as 2 / (1 + 1/r) so that r = +inf gives 2.
struct van_leer {
  FUNCMESH_DEVICE double operator()(double r) const {
    if (!(r > 0.0)) return 0.0;
    return 2.0 / (1.0 + 1.0 / r);
  }
};

// (r^2 + r) / (r^2 + 1) for r > 0 (the formula itself is negative on (-1, 0): cut to 0).
// At most (1 + sqrt 2) / 2 ~ 1.207; for r >= 1 divided through by r^2 so as not to
// overflow.
struct van_albada {
  FUNCMESH_DEVICE double operator()(double r) const {
    if (!(r > 0.0)) return 0.0;
    if (r < 1.0) return (r * r + r) / (r * r + 1.0);
    const double q = 1.0 / r;
    return (1.0 + q) / (1.0 + q * q);
  }
};

// max(0, min(2r, 1), min(r, 2)): the upper edge of the TVD region.
struct superbee {
  FUNCMESH_DEVICE double operator()(double r) const {
    return detail::max_number(
        0.0, detail::max_number(detail::min_number(2.0 * r, 1.0), detail::min_number(r, 2.0)));
  }
};

// Monotonized central: max(0, min(2r, (1 + r)/2, 2)).
struct mc {
  FUNCMESH_DEVICE double operator()(double r) const {
    return detail::max_number(
        0.0, detail::min_number(detail::min_number(2.0 * r, 0.5 * (1.0 + r)), 2.0));
  }
};

// The face value reconstructed from cell c towards neighbour n, limited on the
// reconstructed difference: u_c + phi(r) (u_n - u_c) / 2 with
// r = 2 delta / (u_n - u_c) - 1, where delta = g . (x_n - x_c) is the unlimited projected
// difference. 2 delta - (u_n - u_c) estimates the upwind difference (behind c), so r is
// its ratio to the downwind one; linear data gives r = 1 and the midpoint value.
// As 0 <= phi <= 2 the result lies between u_c and u_n; it is clamped there so that
// rounding never takes it outside. For u_n == u_c the result is u_c (no division).
template <class Phi>
FUNCMESH_DEVICE double slope_limited_face_value(const Phi& phi, double u_c, double u_n,
                                                double delta) {
  const double du = u_n - u_c;
  if (du == 0.0) return u_c;
  const double r = 2.0 * delta / du - 1.0;
  const double u_f = u_c + 0.5 * phi(r) * du;
  return detail::min_number(detail::max_number(u_f, detail::min_number(u_c, u_n)),
                            detail::max_number(u_c, u_n));
}

// ---------------------------------------------------------------------------------------
// Cell limiters (multidimensional form). For one face of a cell: delta = g . r_f, the
// unlimited increment from the cell centroid to the face centroid; d_min = u_min - u_c
// <= 0 and d_max = u_max - u_c >= 0, the cell's bounds over itself and its neighbours.
// The result is a factor in [0, 1]; the cell's factor is the minimum over its faces
// (taken by the caller). Both share one signature; eps2 only matters to Venkatakrishnan.

// Barth-Jespersen: the largest factor that keeps u_c + phi delta within the bounds.
// eps2 is ignored.
struct barth_jespersen {
  FUNCMESH_DEVICE double operator()(double delta, double d_min, double d_max,
                                    double /*eps2*/) const {
    if (delta > 0.0) return detail::max_number(0.0, detail::min_number(1.0, d_max / delta));
    if (delta < 0.0) return detail::max_number(0.0, detail::min_number(1.0, d_min / delta));
    return 1.0;
  }
};

// Venkatakrishnan (1995): with d = d_max (delta > 0) or d_min (delta < 0),
//   phi = (d^2 + 2 d delta + eps2) / (d^2 + d delta + 2 delta^2 + eps2), clamped to <= 1.
// eps2 = (K h)^3, chosen by the caller (K ~ 0.3..10, h a cell size); eps2 = 0 disables
// the smoothing. Guarantees, for any inputs of the stated signs:
//   - phi in [0, 1] (the unclamped formula exceeds 1, up to ~1.099, when d/delta > 2);
//   - with eps2 = 0, u_c + phi delta lies within [u_min, u_max] (phi <= d / delta);
//   - with eps2 > 0, phi -> 1 as delta -> 0 (smooth regions stay unlimited); the price
//     is that u_c + phi delta may then leave the bounds, by an amount that vanishes with
//     eps2. phi is smooth in delta except for the clamp's kink at d / delta = 2 (where
//     the formula crosses 1), gentler than Barth-Jespersen's kink at d / delta = 1.
// Evaluated after scaling by s = max(|d|, |delta|), so that neither tiny nor huge values
// overflow or divide 0 by 0; all terms are >= 0 (d and delta share a sign), so the ratio
// keeps full relative precision even where phi is tiny (phi ~ d / delta there).
struct venkatakrishnan {
  FUNCMESH_DEVICE double operator()(double delta, double d_min, double d_max, double eps2) const {
    // Branch-free (the signs do not predict): delta == 0 is selected at the end, where the
    // formula's 0 / 0 is discarded.
    const double d = delta > 0.0 ? d_max : d_min;
    const double s = detail::max_number(std::abs(d), std::abs(delta));  // > 0 if delta != 0
    const double a = d / s;
    const double b = delta / s;
    // eps2 / s^2, capped: for a tiny s it would be +inf, and the ratio is then 1 anyway.
    const double e = detail::min_number((eps2 / s) / s, 1e300);
    const double phi = (a * a + 2.0 * a * b + e) / (a * a + a * b + 2.0 * b * b + e);
    const double clamped = detail::max_number(0.0, detail::min_number(1.0, phi));
    return delta == 0.0 ? 1.0 : clamped;
  }
};

// ---------------------------------------------------------------------------------------
// Runtime choice, as read from a configuration or a command line.

enum class limiter_kind {
  none,
  barth_jespersen,
  venkatakrishnan,
  minmod,
  van_leer,
  van_albada,
  superbee,
  mc
};

// Accepts "none", "barth", "barth-jespersen", "venkat", "venkatakrishnan", "minmod",
// "van-leer", "van-albada", "superbee", "mc"; throws std::invalid_argument naming every
// valid name otherwise.
limiter_kind parse_limiter(std::string_view name);

// The canonical name ("none", "barth-jespersen", "venkatakrishnan", "minmod", "van-leer",
// "van-albada", "superbee", "mc"); parse_limiter(name_of(k)) == k.
const char* name_of(limiter_kind kind);

// Slope limiters (minmod .. mc) act on faces through slope_limited_face_value; the others
// (none, barth_jespersen, venkatakrishnan) are cell limiters.
constexpr bool is_slope_limiter(limiter_kind kind) {
  return kind == limiter_kind::minmod || kind == limiter_kind::van_leer ||
         kind == limiter_kind::van_albada || kind == limiter_kind::superbee ||
         kind == limiter_kind::mc;
}

}  // namespace funcmesh::fv
