// The checkpoints' mesh for viewers (checkpoint_mesh.hpp): written as the checkpoints are,
// rank 0 laying the file out and every rank writing its own piece, so that no rank ever
// holds more than its part.
#include "checkpoint_mesh.hpp"

#include <cinttypes>
#include <cstdio>
#include <system_error>

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/mpi_error.hpp>

#include "block_checksum.hpp"
#include "block_file.hpp"
#include "hdf5_file.hpp"

namespace funcmesh::detail {

namespace {

// What every rank tells the others: its points and topology entries, and checksums of its
// cell ids (the block order), its coordinates and its topology: together they name the
// mesh file, so that a file of another geometry, partition or halo is never taken for it.
struct rank_piece {
  std::int64_t points = 0, topology = 0;
  std::uint64_t ids_checksum = 0, points_checksum = 0, topology_checksum = 0;
};

// The mesh files' layout, in their names' hash: a later change of the layout changes it.
constexpr std::uint64_t mesh_file_version = 1;

}  // namespace

checkpoint_mesh write_checkpoint_mesh(const distributed_layout& layout,
                                      const std::filesystem::path& dir, std::uint64_t fingerprint,
                                      std::uint64_t ids_checksum, const std::string& who) {
  const mpi::communicator comm(layout.comm());
  const MPI_Comm raw = layout.comm();
  const mesh& local = layout.mesh().cells;
  const index_t owned = layout.owned_count();

  // Every local point (a few halo-only ones among them, unused), and the owned cells in
  // local order, numbered from this rank's first point (an exclusive prefix sum).
  const auto points = static_cast<std::int64_t>(local.node_count());
  std::int64_t first_point = 0;
  check_mpi(MPI_Exscan(&points, &first_point, 1, MPI_INT64_T, MPI_SUM, raw),
            "MPI_Exscan (checkpoint mesh)", raw);
  if (comm.rank() == 0) first_point = 0;  // MPI leaves rank 0's result undefined
  std::vector<std::int64_t> stream;
  rank_piece mine{points, 0, ids_checksum, 0, 0};
  std::string failure;
  try {
    stream.reserve(
        static_cast<std::size_t>(owned + local.cells.offsets[static_cast<std::size_t>(owned)]));
    for (index_t c = 0; c < owned; ++c) {
      append_xdmf_cell(stream, local.cells.types[static_cast<std::size_t>(c)],
                       local.cells.nodes_of(c), first_point);
    }
    mine.topology = static_cast<std::int64_t>(stream.size());
    mine.points_checksum = checksum_of(local.coordinates.data(),
                                       local.coordinates.size() * sizeof(local.coordinates[0]));
    mine.topology_checksum = checksum_of(stream.data(), stream.size() * sizeof(std::int64_t));
  } catch (const std::exception& e) {  // memory, a cell XDMF has no code for
    failure = who + ": the checkpoints' mesh: " + e.what();
  }
  mpi::agree(comm, failure);
  std::vector<rank_piece> all(static_cast<std::size_t>(comm.size()));
  check_mpi(MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, raw),
            "MPI_Allgather (checkpoint mesh)", raw);

  checkpoint_mesh result;
  result.cells = layout.global_cells();
  std::int64_t first_entry = 0;
  std::vector<std::uint64_t> signature{mesh_file_version, fingerprint,
                                       static_cast<std::uint64_t>(comm.size())};
  for (int r = 0; r < comm.size(); ++r) {
    const rank_piece& p = all[static_cast<std::size_t>(r)];
    if (r < comm.rank()) first_entry += p.topology;
    result.points += p.points;
    result.topology += p.topology;
    for (const std::uint64_t v :
         {static_cast<std::uint64_t>(p.points), static_cast<std::uint64_t>(p.topology),
          p.ids_checksum, p.points_checksum, p.topology_checksum}) {
      signature.push_back(v);
    }
  }
  char name[40];
  std::snprintf(name, sizeof name, "mesh_%016" PRIx64 ".h5",
                checksum_of(signature.data(), signature.size() * sizeof(std::uint64_t)));
  result.file = name;
  const std::filesystem::path file = dir / result.file;
  std::filesystem::path temporary = file;
  temporary += ".tmp";

  // Rank 0: is it there already (the same mesh on the same layout before)? Else lay it out.
  std::vector<std::uint64_t> offsets(3, 0);  // written?, points', topology's
  const auto laid_out = mpi::on_root_agreed(comm, [&] {
    std::error_code code;
    if (std::filesystem::exists(file, code)) return std::vector<std::uint64_t>{0, 0, 0};
    hdf5_handle h5 = create_aligned_file(temporary, who);
    write_attribute(h5.get(), "format", std::string("funcmesh checkpoint mesh"), who, temporary);
    write_attribute(h5.get(), "version", std::int64_t{1}, who, temporary);
    write_attribute(h5.get(), "mesh_fingerprint", static_cast<std::int64_t>(fingerprint), who,
                    temporary);
    write_attribute(h5.get(), "writer_ranks", static_cast<std::int64_t>(comm.size()), who,
                    temporary);
    write_attribute(h5.get(), "global_cells", result.cells, who, temporary);
    std::vector<std::uint64_t> at{1, 0, 0};
    at[1] = allocated_dataset(h5.get(), "points", H5T_IEEE_F64LE,
                              static_cast<hsize_t>(result.points), 3, who, temporary);
    at[2] = allocated_dataset(h5.get(), "topology", H5T_STD_I64LE,
                              static_cast<hsize_t>(result.topology), 1, who, temporary);
    checked(H5Fclose(h5.release()), who, temporary, "H5Fclose");
    return at;
  });
  if (laid_out) offsets = *laid_out;
  check_mpi(MPI_Bcast(offsets.data(), 3, MPI_UINT64_T, 0, raw), "MPI_Bcast (checkpoint mesh)", raw);
  if (offsets[0] == 0) return result;

  const std::vector<block_piece> pieces{
      {local.coordinates.data(), local.coordinates.size() * sizeof(local.coordinates[0]),
       offsets[1] + static_cast<std::uint64_t>(first_point) * 24},
      {stream.data(), stream.size() * sizeof(std::int64_t),
       offsets[2] + static_cast<std::uint64_t>(first_entry) * 8}};
  failure = write_block_pieces(temporary, pieces, who, /*injectable=*/false);
  try {
    mpi::agree(comm, failure);
  } catch (...) {
    std::error_code ignored;
    if (comm.rank() == 0) std::filesystem::remove(temporary, ignored);
    throw;
  }
  mpi::on_root_agreed(comm, [&] {
    std::error_code code;
    std::filesystem::rename(temporary, file, code);
    if (code) {
      std::filesystem::remove(temporary, code);
      throw error(who + ": cannot name the checkpoints' mesh " + file.string() + ": " +
                  code.message());
    }
    sync_path(dir, who);  // the name made durable, as a checkpoint's is
  });
  return result;
}

xdmf_grid checkpoint_xdmf(const checkpoint_mesh& mesh, const std::string& h5, double t,
                          const std::vector<std::string>& names,
                          const std::vector<int>& components) {
  xdmf_grid grid;
  grid.name = "checkpoint";
  grid.cells = mesh.cells;
  grid.topology = {mesh.file + ":/topology", {mesh.topology}, true};
  grid.points = {mesh.file + ":/points", {mesh.points, 3}, false};
  grid.time = t;
  grid.attributes.push_back({"global_id", {h5 + ":/global_id", {mesh.cells}, true}});
  for (std::size_t f = 0; f < names.size(); ++f) {
    xdmf_array values{h5 + ":/" + names[f], {mesh.cells}, false};
    if (components[f] > 1) values.dimensions.push_back(components[f]);
    grid.attributes.push_back({names[f], std::move(values)});
  }
  return grid;
}

}  // namespace funcmesh::detail
