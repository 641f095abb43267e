// Distributed PNG pictures: polygons per rank, gathered to rank 0, rendered there.
#include <funcmesh/comm/png_output.hpp>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <exception>
#include <limits>
#include <string>
#include <vector>

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/vtk_piece.hpp>

namespace funcmesh {

namespace {

// The plane for 3-D meshes: the caller's, or z = middle of the global bounding box.
std::optional<io::slice_plane> plane_for(const distributed_layout& m,
                                         const io::unstructured_piece& piece,
                                         const png_output_options& options) {
  int dimension = m.mesh().cells.dimension;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &dimension, 1, MPI_INT, MPI_MAX, m.comm()), "MPI_Allreduce",
            m.comm());
  if (dimension < 3) return std::nullopt;
  if (options.slice) return options.slice;
  double bounds[2] = {std::numeric_limits<double>::infinity(),
                      std::numeric_limits<double>::infinity()};  // min z, -max z
  for (const auto& p : piece.points) {
    bounds[0] = std::min(bounds[0], p[2]);
    bounds[1] = std::min(bounds[1], -p[2]);
  }
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, bounds, 2, MPI_DOUBLE, MPI_MIN, m.comm()), "MPI_Allreduce",
            m.comm());
  return io::slice_plane{2, (bounds[0] - bounds[1]) / 2};
}

int as_count(std::int64_t n, const char* what) {
  if (n > INT_MAX) {
    throw error(std::string("funcmesh::write_png: too many ") + what +
                " to gather in one message (more than 2^31)");
  }
  return static_cast<int>(n);
}

// Gathers every rank's polygons and their values to rank 0 (empty elsewhere).
struct gathered {
  io::polygon_set polygons;
  std::vector<double> values;
};

gathered gather(const distributed_layout& m, std::span<const double> owned_values,
                const png_output_options& options, const std::filesystem::path& file) {
  const mpi::communicator comm(m.comm());
  std::string failure;
  if (static_cast<index_t>(owned_values.size()) != m.mesh().owned_count) {
    failure = "funcmesh::write_png(" + file.string() + "): " + std::to_string(owned_values.size()) +
              " values for " + std::to_string(m.mesh().owned_count) + " owned cells";
  }
  mpi::agree(comm, failure);
  const io::unstructured_piece piece = owned_vtk_piece(m.mesh());
  const std::optional<io::slice_plane> plane = plane_for(m, piece, options);
  io::polygon_set mine;
  std::exception_ptr cut_failure;
  try {
    mine = io::cell_polygons(piece, plane);
  } catch (...) {
    cut_failure = std::current_exception();
  }
  mpi::agree(comm, cut_failure);
  const std::vector<double> values = io::values_for(mine, owned_values);
  std::vector<std::int64_t> sizes(static_cast<std::size_t>(mine.size()));
  for (std::size_t p = 0; p < sizes.size(); ++p) sizes[p] = mine.offsets[p + 1] - mine.offsets[p];

  // Counts per rank: polygons, coordinates (2 per point).
  const std::array<std::int64_t, 2> counts{mine.size(),
                                           static_cast<std::int64_t>(mine.points.size()) * 2};
  std::vector<std::int64_t> all_counts(m.rank() == 0 ? 2 * static_cast<std::size_t>(m.size()) : 0);
  check_mpi(
      MPI_Gather(counts.data(), 2, MPI_INT64_T, all_counts.data(), 2, MPI_INT64_T, 0, m.comm()),
      "MPI_Gather", m.comm());
  std::vector<int> polygon_counts, polygon_displacements, coordinate_counts,
      coordinate_displacements;
  std::int64_t polygons = 0, coordinates = 0;
  std::string too_big;
  if (m.rank() == 0) {
    try {
      for (int r = 0; r < m.size(); ++r) {
        polygon_counts.push_back(as_count(all_counts[2 * static_cast<std::size_t>(r)], "polygons"));
        coordinate_counts.push_back(
            as_count(all_counts[2 * static_cast<std::size_t>(r) + 1], "polygon points"));
        polygon_displacements.push_back(as_count(polygons, "polygons"));
        coordinate_displacements.push_back(as_count(coordinates, "polygon points"));
        polygons += polygon_counts.back();
        coordinates += coordinate_counts.back();
      }
    } catch (const std::exception& e) {
      too_big = e.what();
    }
  }
  mpi::agree(comm, too_big);

  gathered out;
  std::vector<std::int64_t> all_sizes(static_cast<std::size_t>(polygons));
  std::vector<double> points(static_cast<std::size_t>(coordinates));
  out.values.resize(static_cast<std::size_t>(polygons));
  check_mpi(
      MPI_Gatherv(sizes.data(), static_cast<int>(sizes.size()), MPI_INT64_T, all_sizes.data(),
                  polygon_counts.data(), polygon_displacements.data(), MPI_INT64_T, 0, m.comm()),
      "MPI_Gatherv", m.comm());
  check_mpi(
      MPI_Gatherv(values.data(), static_cast<int>(values.size()), MPI_DOUBLE, out.values.data(),
                  polygon_counts.data(), polygon_displacements.data(), MPI_DOUBLE, 0, m.comm()),
      "MPI_Gatherv", m.comm());
  check_mpi(MPI_Gatherv(mine.points.data(), static_cast<int>(counts[1]), MPI_DOUBLE, points.data(),
                        coordinate_counts.data(), coordinate_displacements.data(), MPI_DOUBLE, 0,
                        m.comm()),
            "MPI_Gatherv", m.comm());
  if (m.rank() == 0) {
    out.polygons.points.resize(points.size() / 2);
    for (std::size_t k = 0; k < out.polygons.points.size(); ++k) {
      out.polygons.points[k] = {points[2 * k], points[2 * k + 1]};
    }
    out.polygons.offsets.reserve(all_sizes.size() + 1);
    out.polygons.source.reserve(all_sizes.size());
    for (std::size_t p = 0; p < all_sizes.size(); ++p) {
      out.polygons.offsets.push_back(out.polygons.offsets.back() + all_sizes[p]);
      out.polygons.source.push_back(static_cast<std::int64_t>(p));
    }
  }
  return out;
}

}  // namespace

void write_png(const std::filesystem::path& file, const distributed_layout& m,
               std::span<const double> owned_values, const png_output_options& options) {
  const gathered all = gather(m, owned_values, options, file);
  mpi::on_root_agreed(mpi::communicator(m.comm()),
                      [&] { io::render_png(file, all.polygons, all.values, options.picture); });
}

void write_png(const std::filesystem::path& file, const distributed_layout& m,
               const dist_function<double>& field, const png_output_options& options) {
  const auto values = field.local_values().read();
  write_png(file, m,
            std::span<const double>(values.data(), static_cast<std::size_t>(field.owned_size())),
            options);
}

void write_partition_png(const std::filesystem::path& file, const distributed_layout& m,
                         const png_output_options& options) {
  const std::vector<double> rank(static_cast<std::size_t>(m.mesh().owned_count), m.rank());
  const gathered all = gather(m, rank, options, file);
  mpi::on_root_agreed(mpi::communicator(m.comm()), [&] {
    std::vector<std::int64_t> categories(all.values.begin(), all.values.end());
    io::render_categories_png(file, all.polygons, categories, options.picture);
  });
}

}  // namespace funcmesh
