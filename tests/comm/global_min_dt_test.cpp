// global_min_dt: a driver's dt callback that takes the global minimum of a per-cell stable
// step. A first-order Euler run (Rusanov, far field everywhere, SSP-RK2, the CFL step of
// each step's state) has, at every rank count, the dt of each step and the final state's
// bits of the whole mesh run as one part; each dt is the same on every rank, and the first
// is the CFL step of the initial state computed directly.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/distribute.hpp>
#include <funcmesh/comm/face_loops.hpp>
#include <funcmesh/comm/global_min_dt.hpp>
#include <funcmesh/expr/operators.hpp>
#include <funcmesh/fv.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/time/driver.hpp>
#include <funcmesh/time/ssp_rk.hpp>

namespace {

namespace fm = funcmesh;
namespace fv = funcmesh::fv;
namespace time = funcmesh::time;

constexpr int D = 2;
using state = fv::euler_state<D>;
constexpr double cfl = 0.4;

// A pressure and velocity bump: the wave speeds, and so the stable step, vary by cell.
struct initial {
  state operator()(const fm::vec<double, 3>& x) const {
    const fv::ideal_gas<D> gas;
    const double r2 = (x[0] - 0.4) * (x[0] - 0.4) + (x[1] - 0.5) * (x[1] - 0.5);
    state w{};
    w[0] = 1 + 0.5 * std::exp(-30 * r2);
    w[1] = 0.2 + 0.3 * std::exp(-30 * r2);
    w[2] = -0.1;
    w[3] = 1 + 2 * std::exp(-30 * r2);
    return gas.to_conserved(w);
  }
};

struct run_result {
  std::vector<double> dts;
  std::vector<state> u;  // by global cell, owned values
  double first_step = 0;
};

run_result run(const fm::distributed_layout& layout, std::size_t cells) {
  const fm::face_set& faces = layout.faces();
  const fv::ideal_gas<D> gas;
  state free{};
  free[0] = 1;
  free[1] = 0.2;
  free[3] = 2.5;
  std::vector<std::pair<std::string, fv::euler_condition<D>>> conditions;
  for (const auto& g : faces.boundary_groups()) {
    conditions.emplace_back(g.second, fv::euler_condition<D>::far_field(free));
  }
  const fv::euler_outside<D> outside{gas, fv::make_boundary_table(faces, conditions)};
  fm::dist_function<state> u(layout, "u"), rate(layout, "rate");
  u = fm::make_zip(initial{}, layout.centroid());
  run_result r;
  r.first_step = fm::global_min(layout, fv::convective_step(faces, layout.volume(), gas, u, cfl));
  using face = fv::face_flux<fv::euler_rusanov<D>, fv::first_order>;
  using boundary =
      fv::boundary_face_flux<fv::euler_rusanov<D>, fv::euler_outside<D>, fv::first_order>;
  auto rhs = [&](const fm::dist_function<state>& v) -> const fm::dist_function<state>& {
    rate = fm::sum_over_faces(faces, fm::antisymmetric(face{{gas}}), v,
                              fm::on_other_groups(boundary{{gas}, outside})) /
           layout.volume();
    return rate;
  };
  time::driver step(time::ssp_rk2{}, {.steps = 4, .progress_every = 1});
  step(u, rhs,
       fm::global_min_dt(
           layout,
           [&](const auto& v) { return fv::convective_step(faces, layout.volume(), gas, v, cfl); }),
       time::on_progress([&](const time::step_info& s) { r.dts.push_back(s.dt); }));
  r.u.resize(cells);
  const auto owned = u.local_values().to_vector();
  const fm::local_mesh& m = layout.mesh();
  for (fm::index_t c = 0; c < m.owned_count; ++c) {
    r.u[static_cast<std::size_t>(m.global_cell[static_cast<std::size_t>(c)])] =
        owned[static_cast<std::size_t>(c)];
  }
  return r;
}

TEST(global_min_dt, gives_each_step_the_global_cfl_step_with_the_bits_of_one_part) {
  fm::box_options o;
  o.perturbation = 0.2;
  auto generate = [&] { return fm::box2d_tri(12, 10, o); };
  const auto cells = static_cast<std::size_t>(generate().cell_count());
  const fm::distributed_layout layout = fm::distribute_generated(MPI_COMM_WORLD, generate);
  const run_result mine = run(layout, cells);
  const run_result one = run(fm::distribute_generated(MPI_COMM_SELF, generate), cells);
  ASSERT_EQ(mine.dts.size(), 4u);
  ASSERT_EQ(one.dts.size(), 4u);
  EXPECT_EQ(mine.dts[0], mine.first_step);
  EXPECT_GT(mine.dts[0], 0.0);
  for (std::size_t k = 0; k < mine.dts.size(); ++k) {
    EXPECT_EQ(std::memcmp(&mine.dts[k], &one.dts[k], sizeof(double)), 0) << "step " << k;
    double lo = 0, hi = 0;
    MPI_Allreduce(&mine.dts[k], &lo, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&mine.dts[k], &hi, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    EXPECT_EQ(lo, hi) << "step " << k << ": ranks took different steps";
  }
  // The state changes the step: a fixed dt would pass the checks above.
  EXPECT_NE(mine.dts[0], mine.dts[3]);
  const fm::local_mesh& m = layout.mesh();
  for (fm::index_t c = 0; c < m.owned_count; ++c) {
    const auto g = static_cast<std::size_t>(m.global_cell[static_cast<std::size_t>(c)]);
    ASSERT_EQ(std::memcmp(&mine.u[g], &one.u[g], sizeof(state)), 0) << "cell " << g;
  }
}

}  // namespace
