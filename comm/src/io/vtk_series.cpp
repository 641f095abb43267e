// vtk_series: per-rank pieces, the .pvtu and the .pvd, each step agreed across ranks.
#include <funcmesh/comm/parallel_output.hpp>

#include <exception>
#include <system_error>

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/vtk_piece.hpp>

namespace funcmesh {

vtk_series::vtk_series(std::filesystem::path directory, std::string base,
                       vtk_series_options options)
    : directory_(std::move(directory)), base_(std::move(base)), options_(options) {}

std::string vtk_series::pvtu_name(int step) const {
  return base_ + "_" + std::to_string(step) + ".pvtu";
}

std::string vtk_series::piece_name(int step, int rank) const {
  return base_ + "_" + std::to_string(step) + "_" + std::to_string(rank) + ".vtu";
}

std::filesystem::path vtk_series::write_owned(double time, const distributed_layout& m,
                                              const std::vector<detail::owned_field>& fields,
                                              const std::string& local_failure) {
  std::string failure = local_failure;
  if (failure.empty()) {
    for (const auto& field : fields) {
      if (field.name.empty()) {
        failure =
            "funcmesh::vtk_series: a field has no name: name its grid function or "
            "pass named(\"name\", f)";
        break;
      }
    }
  }
  mpi::agree(mpi::communicator(m.comm()), failure);
  std::vector<io::cell_field> views;
  for (const auto& field : fields) {
    views.push_back({field.name, field.components, std::span<const double>(field.values)});
  }
  return write_fields(time, m, views);
}

std::filesystem::path vtk_series::write_fields(double time, const distributed_layout& m,
                                               std::span<const io::cell_field> fields) {
  const mpi::communicator comm(m.comm());
  const int step = steps_written();
  mpi::on_root_agreed(comm, [&] {
    std::error_code failure;
    std::filesystem::create_directories(directory_, failure);
    if (failure) {
      throw error("funcmesh::vtk_series: cannot create the directory " + directory_.string() +
                  ": " + failure.message());
    }
  });

  std::exception_ptr piece_failure;
  try {
    const index_t owned = m.mesh().owned_count;
    const io::unstructured_piece piece = owned_vtk_piece(m.mesh());
    const std::vector<std::int32_t> partition(static_cast<std::size_t>(owned), m.rank());
    std::vector<io::cell_field> all(fields.begin(), fields.end());
    all.push_back(io::scalar_field("partition", std::span<const std::int32_t>(partition)));
    std::span<const std::int64_t> global(m.mesh().global_cell.data(),
                                         static_cast<std::size_t>(owned));
    if (options_.global_cell) all.push_back(io::scalar_field("global_cell", global));
    io::write_vtu(directory_ / piece_name(step, m.rank()), piece, all);
  } catch (...) {
    piece_failure = std::current_exception();
  }
  mpi::agree(comm, piece_failure);

  const std::filesystem::path pvtu = directory_ / pvtu_name(step);
  std::vector<io::pvd_entry> entries = entries_;
  entries.push_back({time, pvtu_name(step)});
  mpi::on_root_agreed(comm, [&] {
    // Names only: the index files sit next to the pieces.
    std::vector<std::string> pieces;
    for (int r = 0; r < m.size(); ++r) pieces.push_back(piece_name(step, r));
    std::vector<io::field_layout> layout = io::layout_of(fields);
    layout.push_back({"partition", 1, "Int32"});
    if (options_.global_cell) layout.push_back({"global_cell", 1, "Int64"});
    io::write_pvtu(pvtu, pieces, layout);
    io::write_pvd(pvd_file(), entries);
  });
  entries_ = std::move(entries);
  return pvtu;
}

}  // namespace funcmesh
