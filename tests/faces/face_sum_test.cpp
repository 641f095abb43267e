// The faces module without MPI: face sets of local meshes built in-process (one part, and
// each of two parts with its halo), face sums on every host executor and the simulated
// device. The gather form equals a plain loop over the global mesh to rounding and is
// bitwise the same for one part or two and on every executor (serial is the oracle).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include <funcmesh/exec/executor.hpp>
#include <funcmesh/expr/operators.hpp>
#include <funcmesh/faces.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/geometry.hpp>
#include <funcmesh/partition/local_mesh.hpp>
#include <funcmesh/partition/mesh_faces.hpp>

#include "../common/executor_params.hpp"
#include "../common/face_fluxes.hpp"
#include "../common/plain_face_sums.hpp"

namespace fm = funcmesh;

namespace {

double field(const std::array<double, 3>& x) { return std::sin(3 * x[0]) + std::cos(2 * x[1]); }

using face_cases::flux;
using face_cases::hot;
using face_cases::times_area;
using face_cases::wall;

fm::mesh box() {
  fm::box_options options;
  options.perturbation = 0.15;
  return fm::box2d_quad(24, 17, options);
}

// The plain loop over the global mesh's faces: the left wall hot, the others walls.
face_cases::plain_face_sums plain_sums(const fm::mesh& global) {
  return face_cases::plain_loop(global, field, flux{},
                                [](const std::string& name, double u, const fm::face_view& v) {
                                  return name == "left" ? hot{}(u, v) : 0.0;
                                });
}

// One part's face sums by global cell (NaN where the part owns no cell).
struct part_sums {
  std::vector<double> sums, cell_sums;
};

part_sums sums_of_part(const fm::mesh& global, const face_cases::plain_face_sums& plain,
                       std::span<const int> part, int parts, int which) {
  const fm::local_mesh local = fm::build_local_mesh(global, part, parts, which);
  const fm::face_set faces(local);
  EXPECT_EQ(faces.owned_count(), local.owned_count);
  EXPECT_EQ(faces.cell_count(), local.cells.cell_count());
  fm::grid_function<double> u(local.owned_count, local.halo_count(), "u");
  {
    auto w = u.write();
    for (fm::index_t c = 0; c < faces.cell_count(); ++c) {
      w[c] = plain.u[static_cast<std::size_t>(local.global_cell[static_cast<std::size_t>(c)])];
    }
  }
  fm::grid_function<double> out(local.owned_count, "out"), around(local.owned_count, "around");
  out = fm::sum_over_faces(faces, flux{}, u, fm::on("left", hot{}), fm::on_other_groups(wall{}));
  around = fm::sum_over_cell_faces(faces, times_area{}, u);
  part_sums result;
  result.sums.assign(plain.u.size(), std::nan(""));
  result.cell_sums.assign(plain.u.size(), std::nan(""));
  const auto o = out.to_vector();
  const auto a = around.to_vector();
  for (fm::index_t c = 0; c < local.owned_count; ++c) {
    const auto global_cell =
        static_cast<std::size_t>(local.global_cell[static_cast<std::size_t>(c)]);
    result.sums[global_cell] = o[static_cast<std::size_t>(c)];
    result.cell_sums[global_cell] = a[static_cast<std::size_t>(c)];
  }
  return result;
}

std::vector<std::uint64_t> bits(const std::vector<double>& values) {
  std::vector<std::uint64_t> result(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) std::memcpy(&result[i], &values[i], 8);
  return result;
}

struct face_sums : ::testing::TestWithParam<fm::executor> {};

TEST_P(face_sums, equal_the_plain_loop_and_are_bitwise_alike_for_one_part_or_two) {
  const fm::mesh global = box();
  const face_cases::plain_face_sums plain = plain_sums(global);
  const std::vector<int> whole(plain.u.size(), 0);
  std::vector<int> halves(plain.u.size());
  const fm::mesh_geometry g = fm::compute_geometry(global, fm::build_faces(global));
  for (std::size_t c = 0; c < halves.size(); ++c) halves[c] = g.cell_centroid[c][0] < 0.45 ? 0 : 1;

  part_sums serial_one;
  {
    fm::scoped_executor serial(fm::executor::serial());
    serial_one = sums_of_part(global, plain, whole, 1, 0);
  }
  fm::scoped_executor chosen(GetParam());
  const part_sums one = sums_of_part(global, plain, whole, 1, 0);
  EXPECT_EQ(bits(one.sums), bits(serial_one.sums));
  EXPECT_EQ(bits(one.cell_sums), bits(serial_one.cell_sums));

  double scale = 0;
  for (const double x : plain.sums) scale = std::max(scale, std::abs(x));
  ASSERT_GT(scale, 0.0);
  for (std::size_t c = 0; c < plain.u.size(); ++c) {
    EXPECT_NEAR(one.sums[c], plain.sums[c], 1e-12 * scale) << "cell " << c;
    EXPECT_NEAR(one.cell_sums[c], plain.u[c] * plain.perimeter[c], 1e-12) << "cell " << c;
  }
  // Each half with its halo: every cell is owned by one of them, with the one part's bits.
  std::vector<double> two(plain.u.size(), std::nan(""));
  for (int which = 0; which < 2; ++which) {
    const part_sums half = sums_of_part(global, plain, halves, 2, which);
    for (std::size_t c = 0; c < two.size(); ++c) {
      if (halves[c] == which) two[c] = half.sums[c];
    }
  }
  EXPECT_EQ(bits(two), bits(one.sums));
}

TEST_P(face_sums, a_boundary_group_without_a_flux_is_refused_by_name) {
  const fm::mesh global = box();
  const std::vector<int> whole(static_cast<std::size_t>(global.cell_count()), 0);
  const fm::face_set faces(fm::build_local_mesh(global, whole, 1, 0));
  fm::grid_function<double> u(faces.owned_count(), "u");
  fm::scoped_executor chosen(GetParam());
  try {
    (void)fm::sum_over_faces(faces, flux{}, u, fm::on("left", hot{}));
    FAIL() << "a face sum without fluxes for right, bottom and top was accepted";
  } catch (const fm::error& e) {
    EXPECT_NE(std::string(e.what()).find("right"), std::string::npos) << e.what();
  }
}

// An antisymmetric flux's sums keep their per-worker windows in a pool: N assignments
// allocate them once (none on the device, which has no windows), and two sums of one
// statement hold two (had they shared one, the second would read the first's fluxes).
TEST_P(face_sums, assignments_allocate_their_flux_windows_once) {
  const fm::mesh global = box();
  const std::vector<int> whole(static_cast<std::size_t>(global.cell_count()), 0);
  const fm::face_set faces(fm::build_local_mesh(global, whole, 1, 0));
  ASSERT_GT(faces.flux_window(), 0) << "a generated mesh's faces follow its cells: windows on";
  fm::scoped_executor chosen(GetParam());
  const std::uint64_t per_sum = GetParam().space().is_host() ? 1 : 0;
  const fm::index_t n = faces.owned_count();
  fm::grid_function<double> u(n, "u"), w(n, "w"), out(n, "out"), a(n, "a"), b(n, "b");
  auto sum_of = [&](const fm::grid_function<double>& input) {
    return fm::sum_over_faces(faces, fm::antisymmetric(flux{}), input, fm::on("left", hot{}),
                              fm::on_other_groups(wall{}));
  };
  fm::detail::release_idle_flux_windows();
  std::uint64_t before = fm::detail::flux_window_allocations();
  for (int step = 0; step < 5; ++step) {
    u = fm::index() * (0.01 * (step + 1));
    out = sum_of(u);
  }
  EXPECT_EQ(fm::detail::flux_window_allocations() - before, per_sum);
  a = fm::sum_over_faces(faces, flux{}, u, fm::on("left", hot{}), fm::on_other_groups(wall{}));
  EXPECT_EQ(bits(out.to_vector()), bits(a.to_vector())) << "each face once: the same bits";

  w = u * u + 1.0;
  fm::detail::release_idle_flux_windows();
  before = fm::detail::flux_window_allocations();
  for (int step = 0; step < 3; ++step) out = sum_of(u) + sum_of(w);
  EXPECT_EQ(fm::detail::flux_window_allocations() - before, 2 * per_sum);
  a = sum_of(u);
  b = sum_of(w);
  a += b;
  EXPECT_EQ(bits(out.to_vector()), bits(a.to_vector()));
}

// A cell-local function that reads the area and every component of the normal seen from
// the cell: a halo cell's sum has its owner's bits only if each of its faces does.
struct oriented {
  FUNCMESH_DEVICE double operator()(double u, const fm::face_view& f) const {
    return u * f.area * (f.normal[0] + 2 * f.normal[1] + 3 * f.normal[2]) + f.area;
  }
};

// Over owned and halo cells, sum_over_cell_faces gives each halo cell its owner's bits
// (its outer faces, to cells the part does not hold, included), in 2-D and in 3-D, where
// the face geometry's canonical sequence matters: the same bits as the whole mesh as one
// part. Three stripes: the middle part's halo has cells of both others.
TEST_P(face_sums, a_cell_local_sum_over_halo_cells_has_the_owners_bits) {
  fm::box_options options;
  options.perturbation = 0.15;
  const std::vector<fm::mesh> meshes{fm::box2d_quad(18, 13, options), fm::box2d_tri(9, 7, options),
                                     fm::box3d_hex(6, 5, 4, options),
                                     fm::box3d_tet(4, 3, 3, options)};
  fm::scoped_executor chosen(GetParam());
  for (const fm::mesh& global : meshes) {
    const fm::mesh_geometry g = fm::compute_geometry(global, fm::build_faces(global));
    const auto cells = static_cast<std::size_t>(global.cell_count());
    std::vector<int> stripes(cells), whole(cells, 0);
    for (std::size_t c = 0; c < cells; ++c) {
      stripes[c] = std::min(2, static_cast<int>(3 * g.cell_centroid[c][0]));
    }
    // Each part's sums by global cell, owned and halo.
    auto sums = [&](std::span<const int> part, int parts, int which, std::vector<double>& owned,
                    std::vector<double>& halo) {
      const fm::local_mesh local = fm::build_local_mesh(global, part, parts, which);
      const fm::face_set faces(local);
      if (parts > 1) {
        EXPECT_GT(faces.stored_face_count(), faces.size()) << "the halo cells' own faces kept";
      }
      fm::grid_function<double> u(local.owned_count, local.halo_count(), "u");
      {
        auto w = u.write();
        for (fm::index_t c = 0; c < faces.cell_count(); ++c) {
          w[c] = field(g.cell_centroid[static_cast<std::size_t>(
              local.global_cell[static_cast<std::size_t>(c)])]);
        }
      }
      fm::grid_function<double> out(local.owned_count, local.halo_count(), "out");
      out.assign(fm::sum_over_cell_faces(faces, oriented{}, u),
                 {.over = fm::iteration_space::owned_and_halo()});
      const auto o = out.to_vector();
      for (fm::index_t c = 0; c < faces.cell_count(); ++c) {
        const auto global_cell =
            static_cast<std::size_t>(local.global_cell[static_cast<std::size_t>(c)]);
        (c < local.owned_count ? owned : halo)[global_cell] = o[static_cast<std::size_t>(c)];
      }
    };
    std::vector<double> one(cells, std::nan("")), none(cells, std::nan(""));
    sums(whole, 1, 0, one, none);
    std::vector<double> owners(cells, std::nan("")), copies(cells, std::nan(""));
    std::size_t halo_cells = 0;
    for (int which = 0; which < 3; ++which) {
      std::vector<double> halo(cells, std::nan(""));
      sums(stripes, 3, which, owners, halo);
      for (std::size_t c = 0; c < cells; ++c) {
        if (std::isnan(halo[c])) continue;
        ++halo_cells;
        EXPECT_EQ(bits({halo[c]}), bits({one[c]})) << "halo cell " << c << " of part " << which;
      }
    }
    EXPECT_GT(halo_cells, std::size_t{10}) << global.cell_count() << " cells";
    EXPECT_EQ(bits(owners), bits(one)) << "the owned cells: the one part's bits";
  }
}

INSTANTIATE_TEST_SUITE_P(executors, face_sums,
                         ::testing::ValuesIn(test_support::host_and_simulated_executors()),
                         test_support::executor_name{});

}  // namespace
