// The funcmesh mesh file (.h5, HDF5; layout in docs/meshes.md): written serially, block by
// block (mesh_file_writer, write_mesh_file), read in parallel, every rank its even share
// of the node, cell and boundary rows (read_mesh_file -> mesh_slab). Without HDF5
// (FUNCMESH_ENABLE_HDF5=OFF) these throw "funcmesh was built without HDF5: ...".
#pragma once

#include <mpi.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string_view>

#include <funcmesh/core/index.hpp>
#include <funcmesh/partition/mesh.hpp>
#include <funcmesh/partition/mesh_slab.hpp>

namespace funcmesh {

// Collective over `comm`. Rank r of P gets rows [share_begin(total, P, r),
// share_begin(total, P, r + 1)) of the nodes, of the cells and of the boundary elements,
// each read with collective hyperslab reads (never a whole array on one rank); physical
// groups and gmsh_tags on every rank, and source = `path` as given (so that later errors
// name the file the user passed; the .msh it came from stays in the file's attributes). Every check
// (format, version, shapes, offsets, element types and node counts, node indices, read failures) is
// agreed: a bad file makes every rank throw the same mpi::collective_error, naming the file and the
// dataset.
mesh_slab read_mesh_file(MPI_Comm comm, const std::filesystem::path& path);

// Writes `m` whole (serial: no MPI needed; HDF5's default file driver). Atomic: the file
// is written as "<path>.partial" and renamed into place once complete.
void write_mesh_file(const std::filesystem::path& path, const mesh& m);

// True when `path` is a readable file with an HDF5 signature (at offset 0 or a user-block
// offset 512, 1024, 2048, ...): what --mesh reads it as. No HDF5 or MPI needed.
bool is_mesh_file(const std::filesystem::path& path);

// A mesh file written as it is read or generated: the nodes first, then element blocks
// one at a time, so that a converter holds one block besides the nodes. Serial. Nothing
// appears at `path` until finish(): a writer destroyed before (an exception) removes its
// "<path>.partial".
class mesh_file_writer {
 public:
  // `dimension` (2 or 3) is the cells' dimension; `node_ids` may be empty (no node tags).
  mesh_file_writer(const std::filesystem::path& path, int dimension,
                   std::span<const std::array<double, 3>> coordinates,
                   std::span<const std::int64_t> node_ids,
                   std::span<const physical_group> physical_groups, std::string_view source,
                   bool gmsh_tags);
  mesh_file_writer(const mesh_file_writer&) = delete;
  mesh_file_writer& operator=(const mesh_file_writer&) = delete;
  ~mesh_file_writer();

  // Appends `block`'s elements (node entries: 0-based global node indices, checked) to
  // the cells when element_dimension is the mesh's dimension, to the boundary when it is
  // one lower; other dimensions are dropped (as read_gmsh drops them). Empty ids are
  // numbered by row (as slab_of does), empty physical ids are 0.
  void add_elements(const element_block& block, int element_dimension);
  // Writes the attributes, closes and renames into place. Once.
  void finish();

  index_t cells_written() const;
  index_t boundary_written() const;
  index_t elements_dropped() const;

 private:
  struct state;
  std::unique_ptr<state> state_;
};

}  // namespace funcmesh
