// PNG pictures of a distributed field: every rank turns its owned cells into polygons
// (2-D cells as they are, 3-D cells cut by a plane), rank 0 gathers them (MPI_Gatherv)
// and renders one image; the partition picture colours each cell by its owning rank.
#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/core/vec.hpp>
#include <funcmesh/io/png.hpp>
#include <funcmesh/io/polygons.hpp>

namespace funcmesh {

struct png_output_options {
  io::png_options picture{};
  // 3-D meshes only: the cut drawn. Default: the plane z = middle of the global mesh's
  // bounding box (a node layer there is drawn once, as the top faces of the cells below).
  std::optional<io::slice_plane> slice{};
};

// Collective over the layout. `owned_values`: one per owned cell. Rank 0 writes the file;
// every failure (a bad value count, a file that cannot be written) throws
// mpi::collective_error on every rank with the same message naming the file. Rank 0
// holds every polygon for a moment: about 100 bytes per drawn cell.
void write_png(const std::filesystem::path& file, const distributed_layout& m,
               std::span<const double> owned_values, const png_output_options& options = {});
void write_png(const std::filesystem::path& file, const distributed_layout& m,
               const dist_function<double>& field, const png_output_options& options = {});
// One component of a vec field (the density of Euler's conserved variables, say).
template <int N>
void write_png(const std::filesystem::path& file, const distributed_layout& m,
               const dist_function<vec<double, N>>& field, int component,
               const png_output_options& options = {}) {
  const bool valid = component >= 0 && component < N;
  mpi::agree(mpi::communicator(m.comm()), valid ? std::string()
                                                : "funcmesh::write_png(" + file.string() +
                                                      "): component " + std::to_string(component) +
                                                      " of a " + std::to_string(N) +
                                                      "-component field");
  std::vector<double> values(static_cast<std::size_t>(field.owned_size()));
  const auto all = field.local_values().read();
  for (std::size_t c = 0; c < values.size(); ++c) {
    values[c] = all[static_cast<index_t>(c)][component];
  }
  write_png(file, m, values, options);
}

// Cells coloured by owning rank (a categorical palette; no colour bar).
void write_partition_png(const std::filesystem::path& file, const distributed_layout& m,
                         const png_output_options& options = {});

}  // namespace funcmesh
