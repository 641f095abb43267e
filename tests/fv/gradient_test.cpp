// fv's mesh parts on every host executor and the simulated device: least-squares gradients
// exact for linear fields on every cell type (skewed and perturbed, boundary cells with the
// boundary values in force), Green-Gauss exact only where faces sit midway, neighbour
// bounds against a plain loop, limited reconstructions that create no new extremum, the
// face offsets' canonical bits, and the same bits for one part or two and on every executor.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include <funcmesh/exec/executor.hpp>
#include <funcmesh/faces.hpp>
#include <funcmesh/fv.hpp>

#include "../common/executor_params.hpp"
#include "fv_meshes.hpp"

namespace fm = funcmesh;
namespace fv = funcmesh::fv;
using fv_cases::named_mesh;

namespace {

using point = std::array<double, 3>;

// a . x + b, and its value at a face centroid (the boundary values of an exact treatment).
struct linear_field {
  fm::vec<double, 3> a{{0.7, -1.3, 0.45}};
  double b = 0.25;
  FUNCMESH_DEVICE double at(const fm::vec<double, 3>& x) const {
    return a[0] * x[0] + a[1] * x[1] + a[2] * x[2] + b;
  }
  FUNCMESH_DEVICE double operator()(double, const fm::face_view& f) const { return at(f.centroid); }
  double operator()(const point& x) const { return at({{x[0], x[1], x[2]}}); }
};
// Two linear components at once.
struct linear_pair {
  linear_field first, second{{{-0.2, 0.9, -1.1}}, 3.0};
  FUNCMESH_DEVICE fm::vec<double, 2> operator()(const fm::vec<double, 2>&,
                                                const fm::face_view& f) const {
    return {{first.at(f.centroid), second.at(f.centroid)}};
  }
};

template <int D>
double largest_error(const std::vector<fm::vec<double, D>>& g, const fm::vec<double, 3>& a,
                     const std::vector<bool>& wanted = {}) {
  double worst = 0;
  for (std::size_t c = 0; c < g.size(); ++c) {
    if (!wanted.empty() && !wanted[c]) continue;
    for (int d = 0; d < D; ++d) worst = std::max(worst, std::abs(g[c][d] - a[d]));
  }
  return worst;
}

// Cells with no face on the domain boundary.
std::vector<bool> interior_cells(const fm::face_set& faces) {
  fm::token holder;
  const fm::face_set_view v = faces.bind_to(fm::host_space, holder);
  std::vector<bool> inside(static_cast<std::size_t>(faces.owned_count()), true);
  for (fm::index_t c = 0; c < faces.owned_count(); ++c) {
    for (fm::index_t k = v.offsets[c]; k < v.offsets[c + 1]; ++k) {
      if (v.other[k] < 0) inside[static_cast<std::size_t>(c)] = false;
    }
  }
  return inside;
}

struct gradients : ::testing::TestWithParam<fm::executor> {};

template <int D>
void least_squares_exact(const named_mesh& m) {
  SCOPED_TRACE(m.name);
  const fm::face_set faces(fv_cases::part_of(m.mesh, 1, 0));
  const linear_field f;
  const auto u = fv_cases::sampled<double>(faces, f, "u");
  fm::grid_function<fm::vec<double, D>> g(faces.owned_count(), "g");
  g = fv::least_squares_gradient<D>(faces, u, fm::on_other_groups(f));
  EXPECT_LT(largest_error<D>(g.to_vector(), f.a), 1e-11) << "exact with exact boundary values";

  const linear_pair pair;
  const auto w = fv_cases::sampled<fm::vec<double, 2>>(
      faces,
      [&](const point& x) {
        return fm::vec<double, 2>{{pair.first(x), pair.second(x)}};
      },
      "w");
  fm::grid_function<fm::vec<fm::vec<double, D>, 2>> gw(faces.owned_count(), "gw");
  gw = fv::least_squares_gradient<D>(faces, w, fm::on_other_groups(pair));
  std::vector<fm::vec<double, D>> first, second;
  for (const auto& row : gw.to_vector()) {
    first.push_back(row[0]);
    second.push_back(row[1]);
  }
  EXPECT_LT(largest_error<D>(first, pair.first.a), 1e-11);
  EXPECT_LT(largest_error<D>(second, pair.second.a), 1e-11);

  // The cell's own value on the boundary (a zero normal gradient): still exact inside, and
  // finite everywhere.
  g = fv::least_squares_gradient<D>(faces, u, fm::on_other_groups(fv::cell_value{}));
  const auto values = g.to_vector();
  const std::vector<bool> inside = interior_cells(faces);
  ASSERT_TRUE(std::ranges::count(inside, true) > 0) << "the mesh has interior cells";
  EXPECT_LT(largest_error<D>(values, f.a, inside), 1e-11);
  for (const auto& row : values) {
    for (int d = 0; d < D; ++d) ASSERT_TRUE(std::isfinite(row[d]));
  }
  EXPECT_GT(largest_error<D>(values, f.a), 1e-3) << "boundary cells see the zero normal gradient";
}

TEST_P(gradients, least_squares_is_exact_for_linear_fields_on_every_mesh) {
  fm::scoped_executor chosen(GetParam());
  for (const double perturbation : {0.0, 0.2}) {
    for (const named_mesh& m : fv_cases::meshes(perturbation)) {
      if (m.mesh.dimension == 2) {
        least_squares_exact<2>(m);
      } else {
        least_squares_exact<3>(m);
      }
    }
  }
}

// A field that does not change across the walls (u = a x + b): their ghost cells hold the
// cell's own value, the other groups the value at the face centroid.
struct across_walls {
  linear_field field{{{0.7, 0.0, 0.0}}, 0.25};
  int walls[4] = {};
  FUNCMESH_DEVICE double operator()(double self, const fm::face_view& f) const {
    for (const int wall : walls) {
      if (wall == f.physical) return self;
    }
    return field.at(f.centroid);
  }
};

// With the walls mirrored, least squares stays exact for a field even across them, where
// placing the cell's own value at the face centroid tilts the boundary cells' gradients.
template <int D>
void mirrored_walls_exact(const named_mesh& m) {
  SCOPED_TRACE(m.name);
  const fm::face_set faces(fv_cases::part_of(m.mesh, 1, 0));
  const std::vector<std::string> names =
      D == 2 ? std::vector<std::string>{"bottom", "top"}
             : std::vector<std::string>{"front", "back", "bottom", "top"};
  const fv::mirrored_groups walls = fv::mirrored(faces, names);
  across_walls b;
  for (std::size_t k = 0; k < walls.ids.size(); ++k) b.walls[k] = walls.ids[k];
  const auto u = fv_cases::sampled<double>(faces, b.field, "u");
  fm::grid_function<fm::vec<double, D>> g(faces.owned_count(), "g");
  g = fv::least_squares_gradient<D>(faces, walls, u, fm::on_other_groups(b));
  EXPECT_LT(largest_error<D>(g.to_vector(), b.field.a), 1e-11);
  g = fv::least_squares_gradient<D>(faces, u, fm::on_other_groups(b));
  EXPECT_GT(largest_error<D>(g.to_vector(), b.field.a), 1e-3) << "unmirrored, the walls tilt it";
}

TEST_P(gradients, least_squares_with_mirrored_walls_is_exact_for_fields_even_across_them) {
  fm::scoped_executor chosen(GetParam());
  for (const named_mesh& m : fv_cases::meshes(0.2)) {
    if (m.name == "prisms") continue;  // its groups are bottom, top, sides
    if (m.mesh.dimension == 2) {
      mirrored_walls_exact<2>(m);
    } else {
      mirrored_walls_exact<3>(m);
    }
  }
  const fm::face_set faces(fv_cases::part_of(fm::box2d_quad(4, 3), 1, 0));
  try {
    (void)fv::mirrored(faces, {"wall"});
    FAIL() << "an unknown group was accepted";
  } catch (const fm::error& e) {
    EXPECT_NE(std::string(e.what()).find("no boundary group \"wall\""), std::string::npos)
        << e.what();
  }
}

template <int D>
double green_gauss_error(const fm::mesh& mesh) {
  const fm::face_set faces(fv_cases::part_of(mesh, 1, 0));
  const linear_field f;
  const auto u = fv_cases::sampled<double>(faces, f, "u");
  fm::grid_function<fm::vec<double, D>> g(faces.owned_count(), "g");
  g = fv::green_gauss_gradient<D>(faces, faces.volume_function(), u, fm::on_other_groups(f));
  return largest_error<D>(g.to_vector(), f.a);
}

// Green-Gauss averages the two cells' values: exact where each face centroid is midway
// between the centroids (regular quads and hexahedra), not on perturbed cells.
TEST_P(gradients, green_gauss_is_exact_only_where_faces_sit_midway) {
  fm::scoped_executor chosen(GetParam());
  fm::box_options perturbed;
  perturbed.perturbation = 0.2;
  EXPECT_LT(green_gauss_error<2>(fm::box2d_quad(8, 7)), 1e-12);
  EXPECT_LT(green_gauss_error<3>(fm::box3d_hex(4, 3, 3)), 1e-12);
  EXPECT_GT(green_gauss_error<2>(fm::box2d_quad(8, 7, perturbed)), 1e-3);
  EXPECT_GT(green_gauss_error<3>(fm::box3d_tet(3, 3, 3, perturbed)), 1e-3);
}

// A smooth nonlinear field's gradients and bounds by global cell: NaN where not owned.
template <int D>
struct part_results {
  std::vector<double> least_squares, green_gauss, lo, hi;
};

double smooth(const point& x) { return std::sin(3 * x[0]) * std::cos(2 * x[1]) + x[2] * x[2]; }

template <int D>
part_results<D> results_of_part(const fm::mesh& global, int parts, int which,
                                part_results<D> into) {
  const fm::local_mesh local = fv_cases::part_of(global, parts, which);
  const fm::face_set faces(local);
  const auto u = fv_cases::sampled<double>(faces, smooth, "u");
  fm::grid_function<fm::vec<double, D>> ls(faces.owned_count(), "ls"),
      gg(faces.owned_count(), "gg");
  ls = fv::least_squares_gradient<D>(faces, u, fm::on_other_groups(fv::cell_value{}));
  gg = fv::green_gauss_gradient<D>(faces, faces.volume_function(), u,
                                   fm::on_other_groups(fv::cell_value{}));
  fm::grid_function<fv::bounds<double>> range(faces.owned_count(), "range");
  range = fv::neighbour_bounds(faces, u, fm::on_other_groups(fv::cell_value{}));
  const auto l = ls.to_vector(), g = gg.to_vector();
  const auto r = range.to_vector();
  for (fm::index_t c = 0; c < local.owned_count; ++c) {
    const auto global_cell =
        static_cast<std::size_t>(local.global_cell[static_cast<std::size_t>(c)]);
    const auto own = static_cast<std::size_t>(c);
    for (int d = 0; d < D; ++d) {
      into.least_squares[global_cell * D + d] = l[own][d];
      into.green_gauss[global_cell * D + d] = g[own][d];
    }
    into.lo[global_cell] = r[own].lo;
    into.hi[global_cell] = r[own].hi;
  }
  return into;
}

template <int D>
void same_bits_everywhere(const named_mesh& m, const fm::executor& chosen) {
  SCOPED_TRACE(m.name);
  const auto cells = static_cast<std::size_t>(m.mesh.cell_count());
  part_results<D> empty{std::vector<double>(cells * D, NAN), std::vector<double>(cells * D, NAN),
                        std::vector<double>(cells, NAN), std::vector<double>(cells, NAN)};
  part_results<D> oracle;
  {
    fm::scoped_executor serial(fm::executor::serial());
    oracle = results_of_part<D>(m.mesh, 1, 0, empty);
  }
  fm::scoped_executor use(chosen);
  part_results<D> two = results_of_part<D>(m.mesh, 2, 0, empty);
  two = results_of_part<D>(m.mesh, 2, 1, two);
  EXPECT_EQ(fv_cases::bits_of(two.least_squares), fv_cases::bits_of(oracle.least_squares));
  EXPECT_EQ(fv_cases::bits_of(two.green_gauss), fv_cases::bits_of(oracle.green_gauss));
  EXPECT_EQ(fv_cases::bits_of(two.lo), fv_cases::bits_of(oracle.lo));
  EXPECT_EQ(fv_cases::bits_of(two.hi), fv_cases::bits_of(oracle.hi));
  // The bounds against a plain loop over the global mesh's faces.
  const fm::mesh_faces all = fm::build_faces(m.mesh);
  const fm::mesh_geometry geometry = fm::compute_geometry(m.mesh, all);
  std::vector<double> lo(cells), hi(cells);
  for (std::size_t c = 0; c < cells; ++c) lo[c] = hi[c] = smooth(geometry.cell_centroid[c]);
  for (fm::index_t f = 0; f < all.size(); ++f) {
    const auto two_cells = all.cells[static_cast<std::size_t>(f)];
    if (two_cells[1] < 0) continue;
    for (int side = 0; side < 2; ++side) {
      const auto c = static_cast<std::size_t>(two_cells[side]);
      const double other =
          smooth(geometry.cell_centroid[static_cast<std::size_t>(two_cells[1 - side])]);
      lo[c] = std::min(lo[c], other);
      hi[c] = std::max(hi[c], other);
    }
  }
  EXPECT_EQ(lo, oracle.lo);
  EXPECT_EQ(hi, oracle.hi);
}

TEST_P(gradients, gradients_and_bounds_have_the_same_bits_for_one_part_or_two) {
  for (const named_mesh& m : fv_cases::meshes(0.2)) {
    if (m.mesh.dimension == 2) {
      same_bits_everywhere<2>(m, GetParam());
    } else {
      same_bits_everywhere<3>(m, GetParam());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(executors, gradients,
                         ::testing::ValuesIn(test_support::host_and_simulated_executors()),
                         test_support::executor_name{});

}  // namespace
