// bench/fv's funcmesh version: one SSP-RK2 step of the second-order Euler scheme composed
// from funcmesh::fv's parts (least-squares gradient, neighbour bounds, Venkatakrishnan,
// linear reconstruction, HLLC, far field) as dist_function assignments on any layout.
#pragma once

#include <array>
#include <chrono>

#include <funcmesh/comm.hpp>
#include <funcmesh/fv.hpp>

#include "bench_case.hpp"

namespace fv_bench {

template <int D>
class fv_step {
 public:
  using state = fv::euler_state<D>;
  using gradient = fv::gradient_t<state, D>;

  fv_step(const fm::distributed_layout& layout, const fv::ideal_gas<D>& gas)
      : layout_(layout),
        faces_(layout.faces()),
        gas_(gas),
        outside_(far_field_everywhere<D>(faces_, gas)),
        u_(layout, "u"),
        u1_(layout, "u1"),
        gradient_(layout, "gradient"),
        limited_(layout, "limited gradient"),
        bounds_(layout, "bounds") {
    u_ = fm::make_zip(initial_state<D>{gas}, layout.centroid());
    dt_ = fm::global_min(layout, fv::convective_step(faces_, layout.volume(), gas_, u_, cfl));
  }

  // u = 0.5 u + 0.5 (u1 + dt L(u1)), u1 = u + dt L(u): each stage's right-hand side goes
  // straight into the stage's result (no du/dt field).
  void step() {
    limit(u_);
    timed(3, [&] { u1_ = u_ + dt_ * (flux_sum(u_) / layout_.volume()); });
    limit(u1_);
    timed(3, [&] { u_ = 0.5 * u_ + 0.5 * (u1_ + dt_ * (flux_sum(u1_) / layout_.volume())); });
  }

  double dt() const { return dt_; }
  void set_dt(double dt) { dt_ = dt; }
  const fm::dist_function<state>& u() const { return u_; }
  const fm::distributed_layout& layout() const { return layout_; }
  // Seconds spent so far in the passes: gradient, bounds, limiter, fluxes with the stage's
  // result (where the time goes; the benchmark's figures are whole steps).
  const std::array<double, 4>& pass_seconds() const { return pass_seconds_; }

 private:
  // gradient_, bounds_ and limited_ of v: three cell loops, as euler_fv's scheme runs them.
  void limit(const fm::dist_function<state>& v) {
    const auto boundary = fm::on_other_groups(outside_);
    timed(0, [&] { gradient_ = fv::least_squares_gradient<D>(faces_, v, boundary); });
    timed(1, [&] { bounds_ = fv::neighbour_bounds(faces_, v, boundary); });
    timed(2, [&] {
      limited_ = fv::limited_gradient<D>(faces_, fv::venkatakrishnan{}, v, gradient_, bounds_,
                                         fv::venkatakrishnan_eps2(venkat_k, layout_.cell_size()));
    });
  }

  template <class F>
  void timed(int pass, F&& f) {
    const auto start = std::chrono::steady_clock::now();
    f();
    const std::chrono::duration<double> t = std::chrono::steady_clock::now() - start;
    pass_seconds_[static_cast<std::size_t>(pass)] += t.count();
  }

  // The sum over each cell's faces of -A HLLC(left, right, n), left and right reconstructed
  // linearly from v and limited_ (each face evaluated once on the host: antisymmetric).
  auto flux_sum(const fm::dist_function<state>& v) const {
    using face = fv::face_flux<fv::euler_hllc<D>, fv::linear<D>>;
    using boundary = fv::boundary_face_flux<fv::euler_hllc<D>, fv::euler_outside<D>, fv::linear<D>>;
    const fv::euler_hllc<D> hllc{gas_};
    return fm::sum_over_faces(faces_, fm::antisymmetric(face{hllc}), fv::with_gradient(v, limited_),
                              fm::on_other_groups(boundary{hllc, outside_}));
  }

  fm::distributed_layout layout_;
  const fm::face_set& faces_;
  fv::ideal_gas<D> gas_;
  fv::euler_outside<D> outside_;
  fm::dist_function<state> u_, u1_;
  fm::dist_function<gradient> gradient_, limited_;
  fm::dist_function<fv::bounds<state>> bounds_;
  double dt_ = 0;
  std::array<double, 4> pass_seconds_{};
};

}  // namespace fv_bench
