// Private to the parallel set-up: partition_hilbert computed on slabs, cell for cell the
// same parts as the serial function on the whole mesh, with no rank holding all keys.
#pragma once

#include <mpi.h>

#include <vector>

#include <funcmesh/partition/mesh_slab.hpp>

namespace funcmesh::setup_detail {

// Collective. The part of each slab cell (parts <= the global cell count, checked by the
// caller).
std::vector<int> hilbert_parts(MPI_Comm comm, const mesh_slab& slab, int parts);

}  // namespace funcmesh::setup_detail
