// Meshes into an MPI program in one call: distribute_gmsh(comm, path) (rank 0 reads the
// file, a read error fails every rank alike with the file's message, every rank gets its
// part) and app::load(comm, mesh_options) for what a program's --mesh/--builtin chose.
#pragma once

#include <filesystem>
#include <string>

#include <mpi.h>

#include <funcmesh/app/mesh_options.hpp>
#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/partition/local_mesh.hpp>
#include <funcmesh/partition/partitioning.hpp>

namespace funcmesh {

// Collective. The file is read on rank 0 only, and its cells oriented there
// (normalize_orientation: clockwise cells are turned; a degenerate or tangled cell is an
// error naming the file and the Gmsh element tag); a missing or corrupt file throws the
// same mpi::collective_error on every rank (naming the file, position and reason),
// before any partitioning.
distributed_layout distribute_gmsh(MPI_Comm comm, const std::filesystem::path& path,
                                   const partition_options& partitioning = {},
                                   const halo_options& halo = {});

namespace app {
// Collective: a mesh file as --mesh FILE --partitioner NAME choose: a funcmesh .h5 file
// (is_mesh_file) in parallel by distribute_slab (any partitioner but metis), a Gmsh file by
// distribute_gmsh (auto and metis: METIS; hilbert). A partitioner that the file's path
// cannot use throws usage_error on every rank alike, naming what to choose.
distributed_layout load_file(MPI_Comm comm, const std::string& file,
                             const std::string& partitioner_name,
                             const partition_options& partitioning = {},
                             const halo_options& halo = {});
// Collective: what a program's mesh options chose. A funcmesh .h5 mesh file is read in
// parallel and set up by distribute_slab (any partitioner but metis); a Gmsh file by
// distribute_gmsh (metis or hilbert; auto is metis); a built-in box is generated in slabs
// and set up in parallel (auto: PT-Scotch, else Hilbert), or with metis whole on every rank
// (distribute_generated). --save-mesh writes the mesh first (rank 0, whole). Bad options
// throw usage_error on every rank alike, before any message.
distributed_layout load(MPI_Comm comm, const mesh_options& options,
                        const partition_options& partitioning = {}, const halo_options& halo = {});
}  // namespace app

}  // namespace funcmesh
