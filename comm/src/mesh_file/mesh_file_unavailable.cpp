// The mesh file in a build without HDF5 (FUNCMESH_ENABLE_HDF5=OFF): reading and writing
// refuse (reading alike on every rank), so that programs offering .h5 meshes are built
// the same way either way. is_mesh_file (mesh_file_signature.cpp) still works, so that an
// .h5 given to --mesh gets this message rather than a Gmsh parse error.
#include <funcmesh/comm/mesh_file.hpp>
#include <funcmesh/core/error.hpp>

namespace funcmesh {

namespace {

std::string unavailable(const char* who, const std::filesystem::path& path) {
  return std::string("funcmesh was built without HDF5: ") + who + ": " + path.string() +
         ": cannot read or write funcmesh mesh files (.h5); rebuild with "
         "FUNCMESH_ENABLE_HDF5=ON and a parallel HDF5 (Debian: libhdf5-openmpi-dev)";
}

}  // namespace

struct mesh_file_writer::state {};

mesh_slab read_mesh_file(MPI_Comm, const std::filesystem::path& path) {
  throw agreed_error(unavailable("funcmesh::read_mesh_file", path));
}

void write_mesh_file(const std::filesystem::path& path, const mesh&) {
  throw error(unavailable("funcmesh::write_mesh_file", path));
}

mesh_file_writer::mesh_file_writer(const std::filesystem::path& path, int,
                                   std::span<const std::array<double, 3>>,
                                   std::span<const std::int64_t>, std::span<const physical_group>,
                                   std::string_view, bool) {
  throw error(unavailable("funcmesh::mesh_file_writer", path));
}
mesh_file_writer::~mesh_file_writer() = default;
void mesh_file_writer::add_elements(const element_block&, int) {}
void mesh_file_writer::finish() {}
index_t mesh_file_writer::cells_written() const { return 0; }
index_t mesh_file_writer::boundary_written() const { return 0; }
index_t mesh_file_writer::elements_dropped() const { return 0; }

}  // namespace funcmesh
