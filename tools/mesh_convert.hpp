// funcmesh-partition --convert: a Gmsh .msh file to a funcmesh mesh file (.h5). Built
// from mesh_convert.cpp where funcmesh::comm (MPI, and HDF5 for the writer) is, else from
// mesh_convert_unavailable.cpp, which says so.
#pragma once

#include <filesystem>

namespace funcmesh::tools {

// Reads `in` as distribute_gmsh does (read_gmsh, normalize_orientation), writes `out` with
// mesh_file_writer block by block, and prints what it wrote, the time and the process's
// peak resident memory. Needs no MPI_Init (no mpirun). Throws funcmesh::error.
void convert_mesh(const std::filesystem::path& in, const std::filesystem::path& out);

}  // namespace funcmesh::tools
