// mesh_fingerprint: a 64-bit hash of a distributed mesh (global cell and node counts, each
// cell's type and its nodes' global ids, keyed by its global id) that is the same for any
// rank count: each rank hashes its cells and the sums are added across ranks.
#pragma once

#include <mpi.h>

#include <cstdint>

#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/partition/mesh_slab.hpp>

namespace funcmesh {

// Collective over the layout (one MPI_Allreduce): over the owned cells.
std::uint64_t mesh_fingerprint(const distributed_layout& layout);

// Collective over comm (one MPI_Allreduce): the same value from slabs of the mesh (one per
// rank, each its share as read_mesh_file or box_slab give it), before any partitioning, so
// a mesh file's fingerprint needs no set-up: mesh_fingerprint(comm, read_mesh_file(comm, f)).
std::uint64_t mesh_fingerprint(MPI_Comm comm, const mesh_slab& slab);

}  // namespace funcmesh
