// fv's parts inside distributed assignments, written once: fv_parts_test.cpp runs them at
// 1-4 ranks on the host executors and the simulated device, fv_parts_cuda_test.cu on every
// visible GPU. The oracle is the whole mesh as one part on the serial executor: every owned
// cell must have its bits (gradients, bounds, limited gradient, a MUSCL HLLC right-hand side).
#pragma once

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
#include <funcmesh/exec/executor.hpp>
#include <funcmesh/expr/operators.hpp>
#include <funcmesh/fv.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/local_mesh.hpp>

namespace fv_cases {

namespace fm = funcmesh;
namespace fv = funcmesh::fv;

constexpr int D = 2;
using state = fv::euler_state<D>;
using gradient = fv::gradient_t<state, D>;

// A smooth flow with a jump in density, so that the limiters act.
struct initial {
  FUNCMESH_DEVICE state operator()(const fm::vec<double, 3>& x) const {
    const fv::ideal_gas<D> gas;
    state w{};
    w[0] = (x[0] + 0.4 * x[1] > 0.6 ? 1.0 : 0.4) + 0.1 * std::sin(4 * x[1]);
    w[1] = 0.3 + 0.2 * std::cos(3 * x[0]);
    w[2] = -0.1 + 0.2 * x[0] * x[1];
    w[3] = 1 + 0.2 * std::sin(2 * x[0] + x[1]);
    return gas.to_conserved(w);
  }
};

// What one run computes, every field's owned values by global cell.
struct results {
  std::vector<gradient> least_squares, green_gauss, limited;
  std::vector<fv::bounds<state>> range;
  std::vector<state> rate;
};

template <class T>
void scatter(const std::vector<T>& owned, const fm::local_mesh& m, std::vector<T>& out) {
  for (fm::index_t c = 0; c < m.owned_count; ++c) {
    out[static_cast<std::size_t>(m.global_cell[static_cast<std::size_t>(c)])] =
        owned[static_cast<std::size_t>(c)];
  }
}

// The parts on the executor in force; u's initial values on the serial executor (a
// device's sin need not round as the host's does).
inline results compute(const fm::distributed_layout& layout, std::size_t cells) {
  const fm::face_set& faces = layout.faces();
  std::vector<std::pair<std::string, fv::euler_condition<D>>> conditions;
  const fv::ideal_gas<D> gas;
  state free{};
  free[0] = 1;
  free[3] = 2.5;
  for (const auto& g : faces.boundary_groups()) {
    conditions.emplace_back(g.second, g.second == "left" ? fv::euler_condition<D>::far_field(free)
                                                         : fv::euler_condition<D>::slip_wall());
  }
  const fv::euler_outside<D> outside{gas, fv::make_boundary_table(faces, conditions)};
  const auto ghosts = fm::on_other_groups(outside);
  const fv::mirrored_groups walls = fv::mirrored(faces, {"right", "bottom", "top"});
  fm::dist_function<state> u(layout, "u"), rate(layout, "rate");
  fm::dist_function<gradient> ls(layout, "ls"), gg(layout, "gg"), limited(layout, "limited");
  fm::dist_function<fv::bounds<state>> range(layout, "range");
  {
    const fm::scoped_executor serial(fm::executor::serial());
    u = fm::make_zip(initial{}, layout.centroid());
  }
  ls = fv::least_squares_gradient<D>(faces, walls, u, ghosts);
  gg = fv::green_gauss_gradient<D>(faces, layout.volume(), u, ghosts);
  range = fv::neighbour_bounds(faces, u, ghosts);
  limited = fv::limited_gradient<D>(faces, fv::venkatakrishnan{}, u, ls, range,
                                    fv::venkatakrishnan_eps2(3.0, layout.cell_size()));
  using face = fv::face_flux<fv::euler_hllc<D>, fv::linear<D>>;
  using boundary = fv::boundary_face_flux<fv::euler_hllc<D>, fv::euler_outside<D>, fv::linear<D>>;
  rate = fm::sum_over_faces(faces, fm::antisymmetric(face{{gas}}), fv::with_gradient(u, limited),
                            fm::on_other_groups(boundary{{gas}, outside})) /
         layout.volume();
  results r{std::vector<gradient>(cells), std::vector<gradient>(cells),
            std::vector<gradient>(cells), std::vector<fv::bounds<state>>(cells),
            std::vector<state>(cells)};
  const fm::local_mesh& m = layout.mesh();
  scatter(ls.local_values().to_vector(), m, r.least_squares);
  scatter(gg.local_values().to_vector(), m, r.green_gauss);
  scatter(limited.local_values().to_vector(), m, r.limited);
  scatter(range.local_values().to_vector(), m, r.range);
  scatter(rate.local_values().to_vector(), m, r.rate);
  return r;
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// A perturbed triangle box on MPI_COMM_WORLD, the oracle computed as one part on the serial
// executor, and the check that `mine` has its bits at every owned cell (and that the
// limiter acted somewhere, so that its path is covered).
struct setup {
  fm::distributed_layout layout, whole;
  std::size_t cells;
  results one;

  static fm::mesh generate() {
    fm::box_options o;
    o.perturbation = 0.2;
    return fm::box2d_tri(14, 11, o);
  }
  setup()
      : layout(fm::distribute_generated(MPI_COMM_WORLD, generate)),
        whole(fm::distribute_generated(MPI_COMM_SELF, generate)),
        cells(static_cast<std::size_t>(generate().cell_count())) {
    const fm::scoped_executor serial(fm::executor::serial());
    one = compute(whole, cells);
  }

  void expect_oracle_bits(const results& mine) const {
    const fm::local_mesh& m = layout.mesh();
    for (fm::index_t c = 0; c < m.owned_count; ++c) {
      const auto g = static_cast<std::size_t>(m.global_cell[static_cast<std::size_t>(c)]);
      ASSERT_TRUE(same_bits(mine.least_squares[g], one.least_squares[g])) << "cell " << g;
      ASSERT_TRUE(same_bits(mine.green_gauss[g], one.green_gauss[g])) << "cell " << g;
      ASSERT_TRUE(same_bits(mine.range[g], one.range[g])) << "cell " << g;
      ASSERT_TRUE(same_bits(mine.limited[g], one.limited[g])) << "cell " << g;
      ASSERT_TRUE(same_bits(mine.rate[g], one.rate[g])) << "cell " << g;
    }
    std::size_t limited_cells = 0;
    for (std::size_t g = 0; g < cells; ++g) {
      limited_cells += same_bits(one.limited[g], one.least_squares[g]) ? 0 : 1;
    }
    EXPECT_GT(limited_cells, 0U);
  }
};

}  // namespace fv_cases

// The case for an executor-parameterized fixture that holds a scoped_executor of its
// parameter (fv_parts_test.cpp, fv_parts_cuda_test.cu).
#define FUNCMESH_FV_PARTS_CASES(fixture)                                  \
  TEST_P(fixture, have_the_bits_of_one_serial_part_at_every_owned_cell) { \
    const fv_cases::setup s;                                              \
    s.expect_oracle_bits(fv_cases::compute(s.layout, s.cells));           \
  }
