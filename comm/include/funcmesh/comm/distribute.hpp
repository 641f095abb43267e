// distribute(): rank 0 holds (reads or generates) the whole mesh, partitions it and sends
// every rank its local mesh; or every rank generates a built-in mesh itself and keeps its
// part. Either way each rank ends with the distributed_layout of its part.
#pragma once

#include <functional>

#include <mpi.h>

#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/partition/local_mesh.hpp>
#include <funcmesh/partition/mesh.hpp>
#include <funcmesh/partition/partitioning.hpp>

namespace funcmesh {

// Collective. `global` is read on rank 0 only (other ranks may pass an empty mesh). If
// partitioning fails on rank 0 (too many parts, a METIS error), every rank throws the
// same error. Local meshes larger than 2^31 bytes travel in chunks. The layout keeps its
// own duplicate of `comm`: the caller may free `comm` afterwards.
distributed_layout distribute(MPI_Comm comm, const mesh& global,
                              const partition_options& partitioning = {},
                              const halo_options& halo = {});

// Collective. Every rank calls `generate` (which must give the same mesh everywhere, as the
// built-in meshes do), partitions it identically (METIS is deterministic for the same
// input and seed) and keeps its own part: no messages, but every rank holds the whole
// mesh for a moment. Right for built-in meshes up to a few million cells per node.
distributed_layout distribute_generated(MPI_Comm comm, const std::function<mesh()>& generate,
                                        const partition_options& partitioning = {},
                                        const halo_options& halo = {});

namespace detail {
// local_mesh <-> bytes, for the scatter (and tests).
std::vector<std::byte> serialize(const local_mesh& local);
local_mesh deserialize(std::span<const std::byte> bytes);
}  // namespace detail

}  // namespace funcmesh
