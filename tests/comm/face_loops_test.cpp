// Face loops at any rank count: the gather form equals a plain loop over the global mesh,
// is bitwise identical to a one-part run, the scatter form agrees to rounding, and a
// boundary group without a flux is refused on every rank alike.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <funcmesh/comm/collective_error.hpp>
#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/distribute.hpp>
#include <funcmesh/comm/face_loops.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/geometry.hpp>
#include <funcmesh/partition/local_cell_lookup.hpp>
#include <funcmesh/partition/local_mesh.hpp>
#include <funcmesh/partition/mesh_faces.hpp>

#include "../common/plain_face_sums.hpp"

namespace fm = funcmesh;

namespace {

constexpr double kappa = 0.7;

double field(const std::array<double, 3>& x) {
  return std::sin(3 * x[0]) + std::cos(2 * x[1]) + x[2] * x[2];
}
// Diffusion plus an oriented term, so a wrong normal sign shows.
double flux(double ul, double ur, const fm::face_view& f) {
  return kappa * (ur - ul) * f.area / f.distance - 0.3 * f.normal[0] * 0.5 * (ul + ur) * f.area;
}
double hot(double u, const fm::face_view& f) { return kappa * (1.0 - u) * f.area / f.distance; }
double cold(double u, const fm::face_view& f) { return kappa * (0.0 - u) * f.area / f.distance; }
double wall(double, const fm::face_view&) { return 0.0; }

std::vector<std::string> walls(int dimension) {
  if (dimension == 2) return {"bottom", "top"};
  return {"front", "back", "bottom", "top"};
}

// out = the face loop (gather or scatter) of u = field(centroid) on the layout's part.
template <bool gather>
std::vector<double> run(const fm::distributed_layout& layout) {
  const fm::local_mesh& m = layout.mesh();
  fm::dist_function<double> u(layout), out(layout);
  const fm::mesh_geometry g = fm::compute_geometry(m.cells, fm::build_faces(m.cells));
  {
    auto w = u.write();
    for (fm::index_t c = 0; c < m.owned_count; ++c) {
      w[c] = field(g.cell_centroid[static_cast<std::size_t>(c)]);
    }
  }
  const auto b = walls(m.cells.dimension);
  auto loop = [&](auto&&... walled) {
    if constexpr (gather) {
      fm::gather_faces(out, u, flux, fm::on("left", hot), fm::on("right", cold), walled...);
    } else {
      fm::scatter_faces(out, u, flux, fm::on("left", hot), fm::on("right", cold), walled...);
    }
  };
  if (b.size() == 2) {
    loop(fm::on(b[0], wall), fm::on(b[1], wall));
  } else {
    loop(fm::on(b[0], wall), fm::on(b[1], wall), fm::on(b[2], wall), fm::on(b[3], wall));
  }
  std::vector<double> result(static_cast<std::size_t>(m.owned_count));
  auto r = out.local_values().read();
  for (fm::index_t c = 0; c < m.owned_count; ++c) result[static_cast<std::size_t>(c)] = r[c];
  return result;
}

// The same sums by a plain loop over the global mesh, indexed by global cell.
std::vector<double> plain(const fm::mesh& global) {
  return face_cases::plain_loop(
             global, field, flux,
             [](const std::string& name, double u, const fm::face_view& v) {
               return name == "left" ? hot(u, v) : name == "right" ? cold(u, v) : wall(u, v);
             })
      .sums;
}

struct face_loops : ::testing::TestWithParam<int> {
  std::function<fm::mesh()> generate() const {
    fm::box_options options;
    options.perturbation = 0.15;
    if (GetParam() == 2) return [options] { return fm::box2d_quad(20, 15, options); };
    return [options] { return fm::box3d_hex(6, 5, 4, options); };
  }
};

TEST_P(face_loops, gather_matches_global_loop_and_one_part_bitwise_scatter_agrees) {
  const fm::mesh global = generate()();
  const fm::distributed_layout d = fm::distribute_generated(MPI_COMM_WORLD, generate());
  const fm::local_mesh& m = d.mesh();
  const std::vector<double> gathered = run<true>(d);
  const std::vector<double> scattered = run<false>(d);

  // The whole mesh as one part, on this rank alone.
  const fm::distributed_layout alone = fm::distribute_generated(MPI_COMM_SELF, generate());
  const fm::local_cell_lookup whole(alone.mesh());
  const std::vector<double> single = run<true>(alone);
  const std::vector<double> reference = plain(global);

  double scale = 0;
  for (const double x : reference) scale = std::max(scale, std::abs(x));
  ASSERT_GT(scale, 0.0);
  for (fm::index_t c = 0; c < m.owned_count; ++c) {
    const fm::index_t id = m.global_cell[static_cast<std::size_t>(c)];
    const double x = gathered[static_cast<std::size_t>(c)];
    EXPECT_NEAR(x, reference[static_cast<std::size_t>(id)], 1e-12 * scale) << "cell " << id;
    EXPECT_NEAR(scattered[static_cast<std::size_t>(c)], x, 1e-12 * scale) << "cell " << id;
    const double alone = single[static_cast<std::size_t>(whole(id))];
    EXPECT_EQ(x, alone) << "cell " << id << " differs from the one-part result (bits)";
  }
}

TEST_P(face_loops, missing_boundary_flux_names_the_group) {
  const fm::distributed_layout d = fm::distribute_generated(MPI_COMM_WORLD, generate());
  fm::dist_function<double> u(d), out(d);
  u = 1.0;
  try {
    fm::gather_faces(out, u, flux, fm::on("left", hot));
    FAIL() << "expected funcmesh::error";
  } catch (const fm::error& e) {
    EXPECT_NE(std::string(e.what()).find("\"right\""), std::string::npos) << e.what();
  }
  EXPECT_THROW(fm::scatter_faces(out, u, flux, fm::on("lefty", hot)), fm::error);
  EXPECT_THROW(fm::gather_faces(u, u, flux, fm::on_other_groups(wall)), fm::error);
  // A function of another layout (the same mesh) is refused, on every rank alike.
  const fm::distributed_layout other = fm::distribute_generated(MPI_COMM_WORLD, generate());
  fm::dist_function<double> elsewhere(other, "elsewhere");
  EXPECT_THROW(fm::gather_faces(elsewhere, u, flux, fm::on_other_groups(wall)), fm::error);
}

INSTANTIATE_TEST_SUITE_P(box, face_loops, ::testing::Values(2, 3));

// A mesh whose "right" boundary lost its tags: only the parts touching it see untagged
// faces, yet the layout's faces() fails on every rank with the same error (no rank is left
// alone in a face loop's exchange).
TEST(layout_faces, untagged_faces_in_one_part_fail_every_rank) {
  fm::mesh global = fm::box2d_quad(16, 8);
  const int right = global.physical_id("right", 1);
  fm::element_block kept;
  for (fm::index_t e = 0; e < global.boundary.size(); ++e) {
    const auto i = static_cast<std::size_t>(e);
    if (global.boundary.physical[i] == right) continue;
    kept.add(global.boundary.types[i], global.boundary.nodes_of(e), global.boundary.ids[i],
             global.boundary.physical[i]);
  }
  global.boundary = kept;
  const fm::distributed_layout d = fm::distribute(MPI_COMM_WORLD, global);
  for (int attempt = 0; attempt < 2; ++attempt) {  // and again: still agreed, still refused
    try {
      (void)d.faces();
      FAIL() << "expected an agreed error";
    } catch (const fm::mpi::collective_error& e) {
      EXPECT_NE(std::string(e.what()).find("untagged boundary"), std::string::npos) << e.what();
    }
  }
  // A tagged mesh passes.
  const fm::distributed_layout tagged = fm::distribute(MPI_COMM_WORLD, fm::box2d_quad(16, 8));
  EXPECT_EQ(tagged.faces().untagged_boundary_faces(), 0);
}

// The face set's stored geometry is compute_geometry's (the same formulas; a face seen from
// its second cell is the negation), a 2-D mesh off the z = 0 plane keeps its face
// centroids' z, and a 2-D mesh in it stores no z column yet reads z as 0.
TEST(face_set, geometry_is_stored_once_per_face_and_read_from_either_side) {
  for (const double z : {0.0, 2.5}) {
    fm::mesh global = fm::box2d_tri(7, 5);
    for (auto& x : global.coordinates) x[2] = z;
    const std::vector<int> part(static_cast<std::size_t>(global.cell_count()), 0);
    const fm::local_mesh m = fm::build_local_mesh(global, part, 1, 0);
    const fm::face_set faces(m);
    const fm::mesh_faces all = fm::build_faces(m.cells);
    const fm::mesh_geometry g = fm::compute_geometry(m.cells, all);
    ASSERT_EQ(faces.size(), all.size());
    for (fm::index_t c = 0; c < faces.owned_count(); ++c) {
      EXPECT_EQ(faces.cell_volumes()[static_cast<std::size_t>(c)],
                g.cell_volume[static_cast<std::size_t>(c)]);
    }
    fm::token holder;
    const fm::face_set_view v = faces.bind_to(fm::host_space, holder);
    fm::index_t entries = 0;
    for (fm::index_t c = 0; c < faces.owned_count(); ++c) {
      for (fm::index_t k = v.offsets[c]; k < v.offsets[c + 1]; ++k, ++entries) {
        const fm::index_t f = fm::face_set_view::face_of(v.entry_face[k]);
        const auto two = faces.cells(f);
        ASSERT_TRUE(two[0] == c || two[1] == c);
        const fm::face_view seen = v.entry(k);
        const fm::face_view stored = faces.view(f);
        const double sign = two[0] == c ? 1.0 : -1.0;
        EXPECT_EQ(seen.area, stored.area);
        for (int d = 0; d < 3; ++d) EXPECT_EQ(seen.normal[d], sign * stored.normal[d]);
        EXPECT_EQ(seen.centroid[2], z);
        EXPECT_EQ(seen.normal[2], 0.0);
        // One part, no halo: the face set keeps build_faces' numbering.
        const auto i = static_cast<std::size_t>(f);
        EXPECT_DOUBLE_EQ(stored.area, g.face_area[i]);
        for (std::size_t d = 0; d < 2; ++d) {
          EXPECT_NEAR(std::abs(stored.normal[static_cast<int>(d)]), std::abs(g.face_normal[i][d]),
                      1e-14);
          EXPECT_NEAR(stored.centroid[static_cast<int>(d)], g.face_centroid[i][d], 1e-14);
        }
        EXPECT_EQ(v.other[k] >= 0 ? v.other[k] : -1, two[0] == c ? two[1] : two[0]);
        // The tag, folded into the second cell and the entry's other cell, reads alike
        // through both and is the mesh's (box2d's sides are tagged 1-4).
        EXPECT_EQ(seen.physical, stored.physical);
        EXPECT_EQ(stored.physical, two[1] < 0 ? all.physical[i] : 0);
        if (two[1] < 0) {
          EXPECT_GT(stored.physical, 0);
        }
      }
    }
    EXPECT_EQ(entries, 3 * faces.owned_count()) << "three faces per triangle";
  }
}

// A conservative flux that counts its evaluations (host only: a pointer to a counter).
struct counted_flux {
  std::atomic<long>* count;
  double operator()(double l, double r, const fm::face_view& f) const {
    count->fetch_add(1, std::memory_order_relaxed);
    return (r - l) * f.area;
  }
};
struct counted_boundary {
  std::atomic<long>* count;
  double operator()(double u, const fm::face_view& f) const {
    count->fetch_add(1, std::memory_order_relaxed);
    return -u * f.area;
  }
};

// On the host, sum_over_faces of an antisymmetric flux evaluates each face once per worker
// block (within the face set's window), and every face from both sides when windows are
// off; the sums are the same bits either way (face_loop_cases.hpp checks them).
TEST(face_set, antisymmetric_face_sums_evaluate_each_face_once_in_a_window) {
  const fm::distributed_layout layout =
      fm::distribute_generated(MPI_COMM_WORLD, [] { return fm::box2d_quad(40, 30); });
  fm::dist_function<double> u(layout, "u"), sums(layout, "sums");
  u = 1.0;
  const fm::face_set& faces = layout.faces();
  const fm::face_set off(layout.mesh(), fm::default_face_block_size, 0);
  long entries = 0;  // faces of owned cells, counted from each owned side
  for (fm::index_t c = 0; c < faces.owned_count(); ++c) {
    entries += static_cast<long>(faces.faces_of(c).size());
  }
  const auto evaluations = [&](const fm::face_set& set, int threads) {
    const fm::exec::scoped_thread_policy policy(threads, 0);
    std::atomic<long> count{0};
    sums = fm::sum_over_faces(set, fm::antisymmetric(counted_flux{&count}), u,
                              fm::on_other_groups(counted_boundary{&count}));
    return count.load();
  };
  const fm::scoped_executor on(fm::executor::openmp());
  EXPECT_EQ(evaluations(off, 1), entries) << "both sides";
  // One rank: one loop over all cells, each face once. More ranks: the owned-interior
  // cells, then the others; a face is evaluated again only where a window starts over.
  const long once = evaluations(faces, 1);
  EXPECT_GE(once, faces.size());
  if (layout.size() == 1) {
    EXPECT_EQ(once, faces.size());
  }
  EXPECT_LT(once, faces.size() + faces.size() / 10);
  // Three workers: each starts over at its block and computes up to faces_ahead faces past
  // its end.
  const long threaded = evaluations(faces, 3);
  EXPECT_GE(threaded, faces.size());
  if (layout.size() == 1) {
    EXPECT_LE(threaded,
              faces.size() + 3 * (fm::detail::flux_windows::faces_ahead + faces.flux_window()));
  }
}

// A face set that stores only the geometry every loop reads has the same cells, areas,
// normals, tags and gather order bit for bit; what it does not store reads as NaN (never a
// stale number) and the cell centroids are empty. A layout whose faces were built that way
// refuses a later request for more, on every rank alike.
TEST(face_set, minimal_geometry_keeps_the_loops_columns_and_reads_the_rest_as_nan) {
  const fm::distributed_layout layout =
      fm::distribute_generated(MPI_COMM_WORLD, [] { return fm::box2d_tri(12, 9); });
  EXPECT_FALSE(layout.faces_prepared());
  const fm::face_set& lean = layout.prepare_faces(fm::face_geometry::minimal());
  EXPECT_TRUE(layout.faces_prepared());
  const fm::face_set full(layout.mesh());
  ASSERT_EQ(lean.size(), full.size());
  EXPECT_FALSE(lean.stored_geometry().distance);
  EXPECT_TRUE(lean.cell_centroids().empty());
  EXPECT_EQ(full.cell_centroids().size(), static_cast<std::size_t>(full.cell_count()));
  EXPECT_TRUE(lean.cell_volumes().empty());
  EXPECT_EQ(full.cell_volumes().size(), static_cast<std::size_t>(full.cell_count()));
  EXPECT_THROW((void)lean.volume_function(), fm::error);
  EXPECT_THROW((void)lean.centroid_function(), fm::error);
  // The volumes alone, prepared on a layout, are the full set's.
  const fm::distributed_layout with_volumes =
      fm::distribute_generated(MPI_COMM_WORLD, [] { return fm::box2d_tri(12, 9); });
  fm::face_geometry volumes_only = fm::face_geometry::minimal();
  volumes_only.cell_volume = true;
  EXPECT_EQ(with_volumes.prepare_faces(volumes_only).cell_volumes(), full.cell_volumes());
  EXPECT_TRUE(with_volumes.faces().cell_centroids().empty());
  const auto volume = with_volumes.volume().read();
  for (fm::index_t c = 0; c < full.cell_count(); ++c) {
    EXPECT_EQ(volume[c], full.cell_volumes()[static_cast<std::size_t>(c)]);
  }
  for (fm::index_t f = 0; f < lean.size(); ++f) {
    const fm::face_view a = lean.view(f), b = full.view(f);
    ASSERT_EQ(lean.cells(f), full.cells(f));
    EXPECT_EQ(a.area, b.area);
    for (int d = 0; d < 3; ++d) EXPECT_EQ(a.normal[d], b.normal[d]);
    EXPECT_EQ(a.physical, b.physical);
    EXPECT_TRUE(std::isnan(a.distance));
    EXPECT_GT(b.distance, 0.0);
    for (int d = 0; d < 3; ++d) EXPECT_TRUE(std::isnan(a.centroid[d]));
  }
  for (fm::index_t c = 0; c < lean.owned_count(); ++c) {
    EXPECT_EQ(lean.faces_of(c), full.faces_of(c));
  }
  // What was built covers minimal() and faces(); asking for a distance now is refused.
  EXPECT_EQ(&layout.faces(), &lean);
  EXPECT_EQ(&layout.prepare_faces(fm::face_geometry::minimal()), &lean);
  try {
    (void)layout.prepare_faces(
        fm::face_geometry{.distance = true, .face_centroid = false, .cell_centroid = false});
    ADD_FAILURE() << "a distance was asked of faces built without it";
  } catch (const fm::error& e) {
    EXPECT_NE(std::string(e.what()).find("distance"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("prepare them once with everything the solver reads"),
              std::string::npos)
        << e.what();
  }
  try {
    (void)layout.volume();
    ADD_FAILURE() << "volumes were asked of faces built without them";
  } catch (const fm::error& e) {
    EXPECT_NE(std::string(e.what()).find("cell_volume"), std::string::npos) << e.what();
  }
}

}  // namespace
