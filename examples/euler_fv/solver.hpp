// euler_fv's scheme, composed from funcmesh::fv's parts: a cell gradient (least squares or
// Green-Gauss) of conserved or primitive variables, a limiter, reconstruction at the face
// centroids, a numerical flux chosen at run time and boundary conditions by group.
#pragma once

#include <string>

#include <funcmesh/comm.hpp>
#include <funcmesh/fv.hpp>

#include "cases.hpp"

namespace euler_fv {

namespace fm = funcmesh;
namespace fv = funcmesh::fv;

enum class gradient_kind { none, green_gauss, least_squares };

struct choices {
  fv::euler_flux_kind flux = fv::euler_flux_kind::hllc;
  gradient_kind gradient = gradient_kind::least_squares;
  fv::limiter_kind limiter = fv::limiter_kind::none;
  double venkat_k = 5;
  double length = 1;      // the case's length scale (Venkatakrishnan's eps)
  bool primitive = true;  // reconstruct primitive variables (else conserved)
};

// A slope limiter chosen at run time (one compiled face loop for all of them).
struct any_slope_limiter {
  fv::limiter_kind kind = fv::limiter_kind::minmod;
  FUNCMESH_DEVICE double operator()(double r) const {
    switch (kind) {
      case fv::limiter_kind::van_leer:
        return fv::van_leer{}(r);
      case fv::limiter_kind::van_albada:
        return fv::van_albada{}(r);
      case fv::limiter_kind::superbee:
        return fv::superbee{}(r);
      case fv::limiter_kind::mc:
        return fv::mc{}(r);
      default:
        return fv::minmod{}(r);
    }
  }
};

// Linear reconstruction, or the slope-limited one, chosen at run time.
template <int D>
struct any_reconstruction {
  bool slope_limited = false;
  any_slope_limiter limiter;
  template <class T, class G>
  FUNCMESH_DEVICE T face_value(const fv::reconstructed<T, G>& cell, const T& other,
                               const fm::vec<double, 3>& offset,
                               const fm::vec<double, 3>& step) const {
    if (slope_limited) {
      return fv::slope_limited<D, any_slope_limiter>{limiter}.face_value(cell, other, offset, step);
    }
    return fv::linear<D>{}.face_value(cell, other, offset, step);
  }
};

// The right-hand side du/dt of the Euler equations on a layout; Prescribed gives the state
// of the groups whose condition is "prescribed" as a function of (x, t).
template <int D, class Prescribed>
class scheme {
 public:
  using state = fv::euler_state<D>;
  using gradient = fv::gradient_t<state, D>;
  using outside_type = fv::euler_outside<D, Prescribed>;

  scheme(const fm::distributed_layout& layout, const choices& c, const fv::ideal_gas<D>& gas,
         const fv::boundary_table<fv::euler_condition<D>>& table, Prescribed prescribed)
      : layout_(layout),
        faces_(layout.faces()),
        choices_(c),
        gas_(gas),
        outside_{gas, table, prescribed, 0.0},
        mirrored_(mirrored_of(table)),
        primitive_(layout, "primitive"),
        gradient_(layout, "gradient"),
        limited_(layout, "limited gradient"),
        bounds_(layout, "bounds"),
        rate_(layout, "du/dt") {}

  // du/dt at time t (boundary states of that time), into a field of its own: the choices
  // made at run time give loops of different types.
  const fm::dist_function<state>& operator()(const fm::dist_function<state>& u, double t) {
    outside_type outside = outside_;
    outside.t = t;
    const fv::euler_flux<D> flux{choices_.flux, gas_};
    if (choices_.gradient == gradient_kind::none) {
      using boundary = fv::boundary_face_flux<fv::euler_flux<D>, outside_type>;
      rate_ = fm::sum_over_faces(faces_, fm::antisymmetric(fv::face_flux<fv::euler_flux<D>>{flux}),
                                 u, fm::on_other_groups(boundary{flux, outside})) /
              layout_.volume();
    } else if (choices_.primitive) {
      primitive_ = fm::make_zip(euler_case::to_primitive<D>{gas_}, u);
      limit(primitive_,
            fm::on_other_groups(euler_case::primitive_face_state<D, outside_type>{gas_, outside}));
      rate_ = second_order(euler_case::to_conserved<D>{gas_}, primitive_, flux, outside) /
              layout_.volume();
    } else {
      limit(u, fm::on_other_groups(outside));
      rate_ = second_order(fv::same_variables{}, u, flux, outside) / layout_.volume();
    }
    return rate_;
  }

  // Each cell's largest stable step, cfl * V / sum of (|u.n| + c) A; dt is its global
  // minimum (stable_dt, or fm::global_min_dt as the driver's dt callback).
  auto stable_step(const fm::dist_function<state>& u, double cfl) const {
    return fv::convective_step(faces_, layout_.volume(), gas_, u, cfl);
  }
  double stable_dt(const fm::dist_function<state>& u, double cfl) const {
    return fm::global_min(layout_, stable_step(u, cfl));
  }

 private:
  // Whether a cell limiter scales the gradient (into limited_); else the flux reads gradient_.
  bool cell_limited() const {
    return choices_.limiter == fv::limiter_kind::barth_jespersen ||
           choices_.limiter == fv::limiter_kind::venkatakrishnan;
  }

  // gradient_ from v, then limited_ where a cell limiter is chosen.
  template <class B>
  void limit(const fm::dist_function<state>& v, const B& boundary) {
    if (choices_.gradient == gradient_kind::green_gauss) {
      gradient_ = fv::green_gauss_gradient<D>(faces_, layout_.volume(), v, boundary);
    } else {
      gradient_ = fv::least_squares_gradient<D>(faces_, mirrored_, v, boundary);
    }
    if (!cell_limited()) return;
    bounds_ = fv::neighbour_bounds(faces_, v, boundary);
    if (choices_.limiter == fv::limiter_kind::barth_jespersen) {
      limited_ = fv::limited_gradient<D>(faces_, fv::barth_jespersen{}, v, gradient_, bounds_, 0.0);
    } else {
      limited_ = fv::limited_gradient<D>(
          faces_, fv::venkatakrishnan{}, v, gradient_, bounds_,
          fv::venkatakrishnan_eps2(choices_.venkat_k, layout_.cell_size(), choices_.length));
    }
  }

  template <class Convert>
  auto second_order(Convert convert, const fm::dist_function<state>& v,
                    const fv::euler_flux<D>& flux, const outside_type& outside) const {
    any_reconstruction<D> rule;
    rule.slope_limited = fv::is_slope_limiter(choices_.limiter);
    rule.limiter.kind = choices_.limiter;
    using face = fv::face_flux<fv::euler_flux<D>, any_reconstruction<D>, Convert>;
    using boundary =
        fv::boundary_face_flux<fv::euler_flux<D>, outside_type, any_reconstruction<D>, Convert>;
    return fm::sum_over_faces(faces_, fm::antisymmetric(face{flux, rule, convert}),
                              fv::with_gradient(v, cell_limited() ? limited_ : gradient_),
                              fm::on_other_groups(boundary{flux, outside, rule, convert}));
  }

  // The groups whose state at the face is not known (walls, extrapolated outflows): ghost
  // cells in least squares' fit, their outside states the ghosts' values.
  static fv::mirrored_groups mirrored_of(const fv::boundary_table<fv::euler_condition<D>>& table) {
    fv::mirrored_groups result;
    for (int k = 0; k < table.count; ++k) {
      const fv::euler_boundary_kind kind = table.conditions[k].type;
      if (kind == fv::euler_boundary_kind::slip_wall ||
          kind == fv::euler_boundary_kind::supersonic_outflow ||
          kind == fv::euler_boundary_kind::pressure_outlet) {
        result.ids.push_back(table.ids[k]);
      }
    }
    return result;
  }

  fm::distributed_layout layout_;
  const fm::face_set& faces_;
  choices choices_;
  fv::ideal_gas<D> gas_;
  outside_type outside_;
  fv::mirrored_groups mirrored_;
  fm::dist_function<state> primitive_;
  fm::dist_function<gradient> gradient_, limited_;
  fm::dist_function<fv::bounds<state>> bounds_;
  fm::dist_function<state> rate_;
};

}  // namespace euler_fv
