// Private to the parallel set-up: a rank's local mesh from the cells it received, built by
// the same code as the rank-0 path (build_local_mesh) on the region it holds.
#pragma once

#include <mpi.h>

#include <funcmesh/partition/local_mesh.hpp>
#include <funcmesh/partition/mesh_slab.hpp>

#include "migrate.hpp"

namespace funcmesh::setup_detail {

// Collective (node coordinates are fetched from the slabs). The owned and halo cells are
// numbered by ascending global id into a mesh of their own, whose dual graph is the
// global one restricted to them; build_local_mesh on it, with global ids put back, is
// what it builds on the global mesh: its searches never leave the owned cells' depth-step
// neighbourhood, and every order it picks (by index, or by coordinates) is kept by a
// map that keeps the order of global ids.
local_mesh region_local_mesh(MPI_Comm comm, const mesh_slab& slab, region& cells, int parts,
                             int rank, const halo_options& halo);

}  // namespace funcmesh::setup_detail
