// mesh_fingerprint: a 64-bit hash of a distributed mesh (global cell and node counts, each
// cell's type and its nodes' global ids, keyed by its global id) that is the same for any
// rank count: each rank hashes its owned cells and the sums are added across ranks.
#pragma once

#include <cstdint>

#include <funcmesh/comm/distributed_layout.hpp>

namespace funcmesh {

// Collective over the layout (one MPI_Allreduce).
std::uint64_t mesh_fingerprint(const distributed_layout& layout);

}  // namespace funcmesh
