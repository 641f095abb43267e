// The mesh a layout's checkpoints are shown on: every rank's owned cells in the order of
// its block of rows (an XDMF Mixed topology over the rank's local points), one file per
// layout in the checkpoint directory, mesh_<hash>.h5, written once (the hash names the
// mesh and the layout, so a run restarted on another rank count writes its own). Each
// checkpoint's XDMF description (checkpoint_<step>.xdmf) points at it and at the fields.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/partition/xdmf.hpp>

namespace funcmesh::detail {

struct checkpoint_mesh {
  std::string file;  // its name in the checkpoint directory
  std::int64_t points = 0, topology = 0, cells = 0;
};

// Collective: writes dir/mesh_<hash>.h5 unless it is there (rank 0 lays it out with
// serial HDF5, each rank pwrites its points and cells, rank 0 renames it into place).
// `ids_checksum`: this rank's checksum of its owned cells' global ids (the block order).
// A failure throws an agreed error on every rank.
checkpoint_mesh write_checkpoint_mesh(const distributed_layout& layout,
                                      const std::filesystem::path& dir, std::uint64_t fingerprint,
                                      std::uint64_t ids_checksum, const std::string& who);

// The description of checkpoint `h5` (a file name in the same folder) at time t: the mesh's
// topology and points, global_id and each field (names and components as written).
xdmf_grid checkpoint_xdmf(const checkpoint_mesh& mesh, const std::string& h5, double t,
                          const std::vector<std::string>& names,
                          const std::vector<int>& components);

}  // namespace funcmesh::detail
