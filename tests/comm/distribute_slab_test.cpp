// The parallel set-up: from slabs of a mesh, for the same partition, every rank gets the
// local mesh the rank-0 path (distribute) gives from the whole mesh: same global ids,
// order, halos, coordinates and boundary elements; on boxes, a Gmsh file, node adjacency
// and deeper halos; the parallel Hilbert cut is the serial one; failures are agreed.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include <funcmesh/comm/collective_error.hpp>
#include <funcmesh/comm/distribute.hpp>
#include <funcmesh/comm/distribute_slab.hpp>
#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/geometry.hpp>
#include <funcmesh/partition/gmsh_reader.hpp>
#include <funcmesh/partition/hilbert.hpp>
#include <funcmesh/partition/mesh_slab.hpp>

#include "../common/mesh_equality.hpp"
#include "../common/test_paths.hpp"
#include "world.hpp"

#ifndef FUNCMESH_TEST_DATA_DIR
#error "FUNCMESH_TEST_DATA_DIR must name tests/partition/data (funcmesh_test_path)"
#endif

namespace funcmesh::testing {

namespace {

using test_support::world_rank;
using test_support::world_size;

const std::filesystem::path test_data = beside_executable(FUNCMESH_TEST_DATA_DIR);

// The slab path with `which` against the rank-0 path with the same partition.
void expect_paths_agree(const mesh& global, partition_method method, partitioner which,
                        const halo_options& halo = {}) {
  partition_options options;
  options.method = method;
  options.by = halo.by;
  const mesh_slab slab = slab_of(global, world_size(), world_rank());
  const distributed_layout parallel = distribute_slab(MPI_COMM_WORLD, slab, which, options, halo);
  const distributed_layout serial =
      distribute(MPI_COMM_WORLD, world_rank() == 0 ? global : mesh{}, options, halo);
  expect_same(parallel.mesh(), serial.mesh());
  EXPECT_EQ(parallel.global_cells(), global.cell_count());
  EXPECT_EQ(parallel.global_nodes(), global.node_count());
}

// The slab path with a given partition (METIS's, computed here) against the rank-0 path.
void expect_given_partition_agrees(const mesh& global, const halo_options& halo = {}) {
  partition_options options;
  options.by = halo.by;
  const std::vector<int> part = partition_mesh(global, world_size(), options);
  const mesh_slab slab = slab_of(global, world_size(), world_rank());
  const std::vector<int> mine(part.begin() + slab.first_cell,
                              part.begin() + slab.first_cell + slab.cells.size());
  const distributed_layout parallel = distribute_slab(MPI_COMM_WORLD, slab, mine, halo);
  const distributed_layout serial =
      distribute(MPI_COMM_WORLD, world_rank() == 0 ? global : mesh{}, options, halo);
  expect_same(parallel.mesh(), serial.mesh());
}

mesh gmsh_mesh(const std::string& path) {
  mesh m = read_gmsh(path);
  normalize_orientation(m);
  return m;
}

// lshape_hole.geo meshed by the installed gmsh on rank 0 (an unstructured mesh with tags,
// a hole and named boundary groups), read on every rank.
mesh meshed_lshape() {
  const std::string out = "distribute_slab_lshape_" + std::to_string(world_size()) + ".msh";
  if (world_rank() == 0) {
    const std::string command = "gmsh -2 -format msh41 -bin \"" +
                                (test_data / "gmsh/lshape_hole.geo").string() + "\" -o " + out +
                                " > /dev/null 2>&1";
    EXPECT_EQ(std::system(command.c_str()), 0)
        << command << " (ci/install-deps installs Debian's gmsh)";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return gmsh_mesh(out);
}

TEST(distribute_slab, hilbert_gives_the_rank_0_paths_local_meshes_on_tetrahedra) {
  expect_paths_agree(box3d_tet(5, 4, 3), partition_method::hilbert, partitioner::hilbert);
}

TEST(distribute_slab, hilbert_on_perturbed_triangles_and_hexahedra) {
  box_options perturbed;
  perturbed.perturbation = 0.15;
  expect_paths_agree(box2d_tri(9, 7, perturbed), partition_method::hilbert, partitioner::hilbert);
  expect_paths_agree(box3d_hex(4, 5, 3, perturbed), partition_method::hilbert,
                     partitioner::hilbert);
}

TEST(distribute_slab, a_given_metis_partition_gives_the_rank_0_paths_local_meshes) {
  expect_given_partition_agrees(box3d_tet(6, 5, 4));
  expect_given_partition_agrees(box2d_quad(13, 11));
}

TEST(distribute_slab, a_gmsh_mesh_with_tags_and_boundary_groups) {
  const mesh global = meshed_lshape();
  ASSERT_GT(global.cell_count(), 100);
  ASSERT_TRUE(global.gmsh_tags);
  ASSERT_GT(global.boundary.size(), 10);
  expect_given_partition_agrees(global);
  expect_paths_agree(global, partition_method::hilbert, partitioner::hilbert);
}

// Boundary elements on internal surfaces (faces between two cells, most of them inside
// one slab, where faces are matched without messages) reach both cells, as on the rank-0
// path; an element on no cell face (a lower-dimensional one, or a face of no cell) on none.
mesh with_internal_surface(mesh m) {
  const int inner = 90;
  m.physical_groups.push_back({m.dimension - 1, inner, "inner"});
  for (index_t c = 0; c < m.cell_count(); c += 7) {
    const cell_type type = m.cells.types[static_cast<std::size_t>(c)];
    const auto nodes = m.cells.nodes_of(c);
    const int f = static_cast<int>(c % face_count(type));
    std::vector<index_t> face;
    for (std::uint8_t k : face_nodes(type, f)) face.push_back(nodes[k]);
    m.boundary.add(face.size() == 2   ? cell_type::line
                   : face.size() == 3 ? cell_type::triangle
                                      : cell_type::quad,
                   face, 1000 + c, inner);
  }
  const auto first = m.cells.nodes_of(0);
  m.boundary.add(cell_type::point, first.first(1), 5000, 0);  // no face: attaches to nothing
  if (m.dimension == 3) m.boundary.add(cell_type::line, first.first(2), 5001, 0);
  return m;
}

TEST(distribute_slab, boundary_elements_on_internal_surfaces_reach_both_cells) {
  const mesh tets = with_internal_surface(box3d_tet(6, 5, 4));
  {  // The elements do reach the local meshes (the comparisons below are not vacuous).
    const distributed_layout d = distribute_slab(
        MPI_COMM_WORLD, slab_of(tets, world_size(), world_rank()), partitioner::hilbert);
    const auto& physical = d.mesh().cells.boundary.physical;
    long long inner = std::count(physical.begin(), physical.end(), 90), total = 0;
    MPI_Allreduce(&inner, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_GE(total, (tets.cell_count() + 6) / 7);
  }
  expect_given_partition_agrees(tets);
  expect_given_partition_agrees(with_internal_surface(box2d_quad(13, 11)));
  expect_paths_agree(with_internal_surface(box3d_hex(4, 5, 3)), partition_method::hilbert,
                     partitioner::hilbert);
}

TEST(distribute_slab, node_adjacency_and_two_deep_halos) {
  halo_options deep;
  deep.depth = 2;
  expect_given_partition_agrees(box2d_tri(10, 8), deep);
  halo_options by_node;
  by_node.by = adjacency::node;
  expect_given_partition_agrees(box3d_tet(4, 4, 3), by_node);
  by_node.depth = 2;
  expect_paths_agree(box2d_quad(9, 9), partition_method::hilbert, partitioner::hilbert, by_node);
}

TEST(distribute_slab, global_cell_order_keeps_the_inputs_order) {
  halo_options ordered;
  ordered.order = cell_order::global;
  expect_given_partition_agrees(box3d_tet(5, 5, 2), ordered);
}

TEST(distribute_slab, the_automatic_partitioner_covers_every_cell_once) {
  const mesh global = box3d_tet(6, 6, 6);
  const distributed_layout d = distribute_slab(
      MPI_COMM_WORLD, slab_of(global, world_size(), world_rank()), partitioner::automatic);
  long long owned = d.owned_count(), total = 0;
  MPI_Allreduce(&owned, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(total, global.cell_count());
  EXPECT_GT(owned, 0);
  // Each global cell owned exactly once: the sum of owned global ids is the sum of 0..N-1.
  long long ids = 0, id_total = 0;
  for (index_t c = 0; c < d.owned_count(); ++c)
    ids += d.mesh().global_cell[static_cast<std::size_t>(c)];
  MPI_Allreduce(&ids, &id_total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(id_total, global.cell_count() * (global.cell_count() - 1) / 2);
}

TEST(distribute_slab, metis_is_refused_on_every_rank_with_what_to_choose) {
  const mesh_slab slab = slab_of(box2d_quad(6, 6), world_size(), world_rank());
  try {
    (void)distribute_slab(MPI_COMM_WORLD, slab, partitioner::metis);
    FAIL() << "metis on slabs was accepted";
  } catch (const mpi::collective_error& e) {
    EXPECT_NE(std::string(e.what()).find("ptscotch, parmetis or hilbert"), std::string::npos)
        << e.what();
  }
}

TEST(distribute_slab, more_ranks_than_cells_and_bad_parts_are_agreed_errors) {
  const mesh tiny = box2d_quad(1, 1);  // one cell
  const mesh_slab slab = slab_of(tiny, world_size(), world_rank());
  if (world_size() > 1) {
    EXPECT_THROW((void)distribute_slab(MPI_COMM_WORLD, slab, partitioner::hilbert),
                 mpi::collective_error);
  }
  const mesh_slab boxes = slab_of(box2d_quad(4, 4), world_size(), world_rank());
  std::vector<int> part(static_cast<std::size_t>(boxes.cells.size()), 0);
  if (world_rank() == world_size() - 1 && !part.empty())
    part.back() = world_size();  // out of range
  EXPECT_THROW((void)distribute_slab(MPI_COMM_WORLD, boxes, part), mpi::collective_error);
}

TEST(distribute_slab, a_non_manifold_face_is_named_on_every_rank) {
  mesh m = gmsh_mesh((test_data / "gmsh/invalid/three_cells_on_a_face.msh").string());
  if (m.cell_count() < world_size()) GTEST_SKIP() << "fewer cells than ranks";
  const mesh_slab slab = slab_of(m, world_size(), world_rank());
  try {
    (void)distribute_slab(MPI_COMM_WORLD, slab, partitioner::hilbert);
    FAIL() << "a face of three cells was accepted";
  } catch (const mpi::collective_error& e) {
    EXPECT_NE(std::string(e.what()).find("not a manifold"), std::string::npos) << e.what();
  }
}

TEST(distribute_slab, messages_past_the_limit_go_in_rounds_with_the_same_result) {
  // 2^31 bytes in one MPI call is too big for a test: lower the limit to 4 KiB instead, so
  // that every exchange of this mesh goes in many rounds.
  const std::size_t before = detail::set_exchange_round_limit(4096);
  try {
    expect_given_partition_agrees(box3d_tet(6, 5, 4));
    expect_paths_agree(box2d_tri(12, 9), partition_method::hilbert, partitioner::hilbert);
  } catch (...) {
    detail::set_exchange_round_limit(before);
    throw;
  }
  detail::set_exchange_round_limit(before);
}

TEST(distribute_slab, arrays_on_huge_pages_give_the_same_result) {
  // Large arrays (8 MiB and more) are mappings of their own: lower the threshold so that
  // this small mesh's larger arrays take that path too, and the smaller ones do not.
  const std::size_t before = detail::set_large_page_threshold(32 * 1024);
  const std::size_t mapped = detail::large_page_allocations();
  try {
    expect_paths_agree(box3d_tet(14, 13, 12), partition_method::hilbert, partitioner::hilbert);
  } catch (...) {
    detail::set_large_page_threshold(before);
    throw;
  }
  detail::set_large_page_threshold(before);
  EXPECT_GT(detail::large_page_allocations(), mapped);
}

TEST(hilbert, the_parallel_cut_is_the_serial_one) {
  const mesh global = box3d_tet(7, 6, 5);
  const std::vector<int> serial = partition_hilbert(global, world_size());
  const distributed_layout d = distribute_slab(
      MPI_COMM_WORLD, slab_of(global, world_size(), world_rank()), partitioner::hilbert);
  for (index_t c = 0; c < d.owned_count(); ++c) {
    EXPECT_EQ(serial[static_cast<std::size_t>(d.mesh().global_cell[static_cast<std::size_t>(c)])],
              world_rank());
  }
}

}  // namespace

}  // namespace funcmesh::testing
