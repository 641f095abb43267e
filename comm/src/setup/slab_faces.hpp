// Private to the parallel set-up: the faces of a slab's cells matched among themselves, so
// that only the faces on the slab's surface travel to other ranks.
#pragma once

#include <mpi.h>

#include <array>

#include <funcmesh/partition/mesh_slab.hpp>

#include <funcmesh/comm/detail/raw_vector.hpp>
#include "face_key.hpp"

namespace funcmesh::setup_detail {

struct slab_faces {
  // Two slab cells that share a face (global ids), once per face.
  raw_vector<std::array<index_t, 2>> edges;
  // Faces that other ranks must see (cell: its global id): those of one slab cell only (on
  // the mesh's boundary or shared with a cell of another slab), and those of two whose
  // nodes other slabs' cells use too (a third cell may have it: the mesh is then refused).
  raw_vector<keyed> surface;
};

// Collective (which nodes other slabs use is asked of the nodes' slab ranks). Faces are
// bucketed by their smallest node (in rounds of round_budget() bytes) and matched within
// each bucket; a cell's face repeated by the cell itself joins no edge. Throws funcmesh::error
// naming the cells when a face is shared by more than two slab cells (after the
// collective part: the caller agrees on it).
slab_faces match_slab_faces(MPI_Comm comm, const mesh_slab& slab);

}  // namespace funcmesh::setup_detail
