// bench/fv's baseline: the same SSP-RK2 step of the same scheme as fv_step.hpp, written as
// plain loops over raw arrays (the face set's own geometry arrays, read through raw views),
// one rank, no halo. Also the STREAM triad that the bandwidth fraction is measured against.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <funcmesh/expr/grid_function.hpp>
#include <funcmesh/faces/face_set.hpp>
#include <funcmesh/fv/euler.hpp>
#include <funcmesh/fv/euler_fluxes.hpp>
#include <funcmesh/fv/euler_outside.hpp>
#include <funcmesh/memory/token.hpp>

namespace fv_bench {

namespace fm = funcmesh;
namespace fv = funcmesh::fv;

// The passes mirror fv_step's one for one, so that the two differ in their loop machinery
// only: per stage a gather loop for the least-squares gradient, one for the neighbour
// bounds, one for the limited gradient, then a face loop (each face once, added to one
// cell and subtracted from the other, serially) and a cell loop for the stage's result.
// The physics is fv's own device functors (HLLC, far field, Venkatakrishnan).
template <int D>
class plain_step {
 public:
  using state = fv::euler_state<D>;
  static constexpr int components = D + 2;
  static constexpr int matrix_size = D * (D + 1) / 2;
  struct gradient {
    double g[components][D];
  };
  struct range {
    state lo, hi;
  };

  // The initial state from the same functor at the face set's cell centroids; cell sizes
  // from the layout (cell_size: owned cells first). The face set must be one part alone (no
  // halo cells). Holds the face set's arrays, the LS matrices and cell_size for its life.
  plain_step(const fm::face_set& faces, const fm::grid_function<double>& cell_size,
             const fv::ideal_gas<D>& gas, const fv::euler_outside<D>& outside, double dt);

  void step();
  const std::vector<state>& u() const { return u_; }
  // Seconds so far in gradient, bounds, limiter, and fluxes with the stage's result.
  const std::array<double, 4>& pass_seconds() const { return pass_seconds_; }

 private:
  void gradients(const state* v);
  void bounds(const state* v);
  void limit(const state* v);
  void fluxes(const state* v);

  fm::token holder_;
  fm::face_set_view faces_;
  const fm::vec<double, matrix_size>* inverse_ = nullptr;  // least squares, per cell
  const double* volume_ = nullptr;
  const double* cell_size_ = nullptr;
  std::int64_t cells_ = 0;
  std::int64_t face_count_ = 0;
  fv::euler_hllc<D> hllc_;
  fv::euler_outside<D> outside_;
  double dt_ = 0;
  std::vector<state> u_, u1_, residual_;
  std::vector<gradient> gradient_, limited_;
  std::vector<range> bounds_;
  std::array<double, 4> pass_seconds_{};
};

// STREAM triad a[i] = b[i] + s c[i] on one thread over three arrays of n doubles: the best
// of `repeats` in bytes per second (3 n 8 bytes moved, STREAM's count).
double triad_bytes_per_second(std::int64_t n, int repeats);

}  // namespace fv_bench
