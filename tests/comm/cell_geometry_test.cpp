// The layout's cell geometry as expressions (volume(), centroid(), cell_size()) and vec
// values in global reductions, under mpirun: each rank's values, halo included, are those
// of the whole mesh distributed on one rank (MPI_COMM_SELF), cell by global id, bit for
// bit; vec reductions equal the reductions of their components.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstddef>
#include <functional>
#include <map>

#include <funcmesh/comm.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>

namespace funcmesh::testing {
namespace {

namespace fm = funcmesh;
using point = fm::vec<double, 3>;

// Cell values of `f` keyed by global cell id, owned and halo.
template <class T>
std::map<index_t, T> by_global_id(const fm::distributed_layout& layout,
                                  const fm::grid_function<T>& f) {
  std::map<index_t, T> result;
  const auto values = f.read();
  for (index_t c = 0; c < layout.total_count(); ++c) {
    result[layout.mesh().global_cell[static_cast<std::size_t>(c)]] = values[c];
  }
  return result;
}

using mesh_maker = std::function<fm::mesh()>;
const mesh_maker meshes[] = {[] { return fm::box2d_tri(13, 9); },
                             [] { return fm::box2d_quad(8, 8); },
                             [] { return fm::box3d_tet(4, 3, 3); }};

TEST(cell_geometry, volume_centroid_and_size_are_the_whole_meshes_on_every_rank_count) {
  for (const mesh_maker& make : meshes) {
    const fm::distributed_layout layout = fm::distribute_generated(MPI_COMM_WORLD, make);
    const fm::distributed_layout whole = fm::distribute_generated(MPI_COMM_SELF, make);
    const auto volume = by_global_id(whole, whole.volume());
    const auto centroid = by_global_id(whole, whole.centroid());
    const auto size = by_global_id(whole, whole.cell_size());
    for (const auto& [id, v] : by_global_id(layout, layout.volume())) EXPECT_EQ(v, volume.at(id));
    for (const auto& [id, x] : by_global_id(layout, layout.centroid())) {
      EXPECT_EQ(x, centroid.at(id)) << "cell " << id;
    }
    // The halo's sizes too: they come from their owners.
    for (const auto& [id, h] : by_global_id(layout, layout.cell_size())) {
      EXPECT_EQ(h, size.at(id)) << "cell " << id;
    }
    // The host copies are the same numbers.
    const auto centroids = layout.centroid().read();
    for (index_t c = 0; c < layout.total_count(); ++c) {
      const auto& x = layout.faces().cell_centroids()[static_cast<std::size_t>(c)];
      EXPECT_EQ(centroids[c], (point{{x[0], x[1], x[2]}}));
    }
  }
}

TEST(cell_geometry, cell_size_is_the_edge_of_squares_and_the_inscribed_diameter_of_triangles) {
  const fm::distributed_layout squares =
      fm::distribute_generated(MPI_COMM_WORLD, [] { return fm::box2d_quad(8, 8); });
  const double edge = fm::global_max(squares, squares.cell_size());
  EXPECT_NEAR(edge, 1.0 / 8, 1e-15);
  EXPECT_NEAR(fm::global_min(squares, squares.cell_size()), 1.0 / 8, 1e-15);
  // Right isosceles triangles of legs h: 4 V / S = 2 h^2 / (h (2 + sqrt 2)).
  const fm::distributed_layout triangles =
      fm::distribute_generated(MPI_COMM_WORLD, [] { return fm::box2d_tri(10, 10); });
  const double h = 0.1, inscribed = 2 * h * h / (h * (2 + std::sqrt(2.0)));
  EXPECT_NEAR(fm::global_min(triangles, triangles.cell_size()), inscribed, 1e-15);
  EXPECT_NEAR(fm::global_max(triangles, triangles.cell_size()), inscribed, 1e-15);
  // Cubes: the edge again (6 V / S).
  const fm::distributed_layout cubes =
      fm::distribute_generated(MPI_COMM_WORLD, [] { return fm::box3d_hex(4, 4, 4); });
  EXPECT_NEAR(fm::global_max(cubes, cubes.cell_size()), 0.25, 1e-15);
}

TEST(cell_geometry, an_initial_condition_from_the_centroid_needs_no_host_loop) {
  const fm::distributed_layout layout =
      fm::distribute_generated(MPI_COMM_WORLD, [] { return fm::box2d_tri(12, 7); });
  fm::dist_function<double> u(layout, "u");
  u = fm::fmap([](const point& x) { return x[0] + 10 * x[1]; }, layout.centroid());
  const auto values = u.local_values().read();
  for (index_t c = 0; c < layout.owned_count(); ++c) {
    const auto& x = layout.faces().cell_centroids()[static_cast<std::size_t>(c)];
    EXPECT_EQ(values[c], x[0] + 10 * x[1]);
  }
  // The centroids' mean is the domain's centre: a vec reduction, per component.
  const point moment =
      fm::global_sum(layout, layout.volume() * layout.centroid(), {.reproducible = true});
  EXPECT_NEAR(moment[0], 0.5, 1e-14);
  EXPECT_NEAR(moment[1], 0.5, 1e-14);
  EXPECT_EQ(moment[2], 0.0);
}

TEST(vec_reductions, reduce_each_component_as_its_own_reduction) {
  const fm::distributed_layout layout =
      fm::distribute_generated(MPI_COMM_WORLD, [] { return fm::box2d_quad(9, 7); });
  fm::dist_function<fm::vec<double, 2>> q(layout, "q");
  q = fm::make_vec(fm::component<0>(layout.centroid()) - 0.3,
                   fm::fmap([](const point& x) { return -x[1] * x[1]; }, layout.centroid()));
  const auto d = fm::component<0>(q);
  const auto e = fm::component<1>(q);
  const fm::reduce_options exact{.reproducible = true};
  const auto sum = fm::global_sum(q, exact);
  EXPECT_EQ(sum[0], fm::global_sum(layout, d, exact));
  EXPECT_EQ(sum[1], fm::global_sum(layout, e, exact));
  const auto low = fm::global_min(q), high = fm::global_max(q);
  const auto both = fm::global_minmax(q);
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(both.min[k], low[k]);
    EXPECT_EQ(both.max[k], high[k]);
  }
  EXPECT_EQ(low[0], fm::global_min(layout, d));
  EXPECT_EQ(high[1], fm::global_max(layout, e));
  EXPECT_LT(low[0], 0.0);
  EXPECT_GT(high[0], 0.0);
  const auto norms = fm::global_norm2(q);
  EXPECT_DOUBLE_EQ(norms[0], std::sqrt(fm::global_sum(layout, d * d)));
  EXPECT_DOUBLE_EQ(norms[1], std::sqrt(fm::global_sum(layout, e * e)));
  // Integer vec components add in long long, as integer scalars do.
  const auto ones = fm::global_sum(layout, fm::make_vec(fm::fmap([](double) { return 1; }, d),
                                                        fm::fmap([](double) { return 2; }, e)));
  EXPECT_EQ(ones[0], layout.global_cells());
  EXPECT_EQ(ones[1], 2 * layout.global_cells());
}

}  // namespace
}  // namespace funcmesh::testing
