// distribute_slab(): the parallel set-up. Every rank starts from its slab of the mesh (a
// parallel mesh file, a parallel generator); the dual graph, the partition, the migration
// of cells to their owners and the halos are all computed in parallel, and no rank ever
// holds more than its share: set-up memory per rank falls as 1/P.
#pragma once

#include <cstddef>
#include <span>

#include <mpi.h>

#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/comm/partitioner.hpp>
#include <funcmesh/partition/local_mesh.hpp>
#include <funcmesh/partition/mesh_slab.hpp>
#include <funcmesh/partition/partitioning.hpp>

namespace funcmesh {

// Where the set-up's time went on this rank (seconds, wall clock, each phase ending at an
// agreement, so the slowest rank's time): for bench/setup and --verbose.
struct setup_report {
  double link = 0;       // dual graph and boundary elements by hashed face keys
  double partition = 0;  // the partitioner
  double migrate = 0;    // cells to owners, halos fetched level by level
  double build = 0;      // the local mesh and the layout (halo plan)
};

// Collective. Partitions with `which` (automatic: PT-Scotch where built, else Hilbert;
// metis is refused: it needs the whole mesh on rank 0) into one part per rank, using
// partitioning.imbalance and .seed. For the same partition, every rank's local mesh is the
// one distribute() gives from the whole mesh (same global ids, order and halos). Any
// failure (a non-manifold face, an empty part, a partitioner's error) throws the same
// mpi::collective_error on every rank.
distributed_layout distribute_slab(MPI_Comm comm, const mesh_slab& slab,
                                   partitioner which = partitioner::automatic,
                                   const partition_options& partitioning = {},
                                   const halo_options& halo = {}, setup_report* report = nullptr);

// The same with the partition given: part[c] is the rank that owns slab cell c.
distributed_layout distribute_slab(MPI_Comm comm, const mesh_slab& slab, std::span<const int> part,
                                   const halo_options& halo = {}, setup_report* report = nullptr);

namespace detail {
// For tests: the set-up's all-to-alls carry at most `bytes` per MPI call (instead of
// 2^31 - 1) and go in rounds past that. Returns the previous limit.
std::size_t set_exchange_round_limit(std::size_t bytes);
// For tests, between set-ups: the set-up's temporary arrays of `bytes` or more (8 MiB
// unless changed) are mappings of their own on transparent huge pages. Returns the
// previous threshold.
std::size_t set_large_page_threshold(std::size_t bytes);
// For tests: how many arrays took that path in this process so far.
std::size_t large_page_allocations();
}  // namespace detail

}  // namespace funcmesh
