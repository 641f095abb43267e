// restart: verify a checkpoint (format, mesh fingerprint, field list, then every dataset
// read with its checksums checked) into staging buffers, agree, and only then fill the
// fields; "latest" walks the directory's checkpoints newest first.
#include <funcmesh/checkpoint/restart.hpp>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <exception>
#include <string_view>

#include <funcmesh/checkpoint/mesh_fingerprint.hpp>
#include <funcmesh/comm/collective_error.hpp>
#include <funcmesh/comm/communicator.hpp>

#include "checkpoint_attributes.hpp"
#include "checkpoint_files.hpp"
#include "hdf5_file.hpp"
#include "row_buffer.hpp"

namespace funcmesh {

namespace detail {

std::filesystem::path checkpoint_name(std::int64_t step) {
  char name[40];
  std::snprintf(name, sizeof name, "checkpoint_%010lld.h5", static_cast<long long>(step));
  return name;
}

std::vector<std::filesystem::path> checkpoints_in(const std::filesystem::path& dir) {
  std::vector<std::pair<std::int64_t, std::filesystem::path>> found;
  std::error_code code;
  for (const auto& entry : std::filesystem::directory_iterator(dir, code)) {
    const std::string name = entry.path().filename().string();
    constexpr std::string_view prefix = "checkpoint_", suffix = ".h5";
    if (!name.starts_with(prefix) || !name.ends_with(suffix)) continue;
    const std::string_view digits(name.data() + prefix.size(),
                                  name.size() - prefix.size() - suffix.size());
    std::int64_t step = 0;
    const auto [end, status] = std::from_chars(digits.data(), digits.data() + digits.size(), step);
    if (status != std::errc() || end != digits.data() + digits.size()) continue;
    found.emplace_back(step, entry.path());
  }
  std::ranges::sort(found, [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::filesystem::path> result;
  for (auto& [step, path] : found) result.push_back(std::move(path));
  return result;
}

namespace {

constexpr const char* who = "funcmesh::restart";

struct staged {
  checkpoint_step step;
  std::vector<std::vector<double>> values;  // per field, owned cells in local order
};

// The root attributes of an open checkpoint, for check_attributes.
class hdf5_attributes final : public attribute_source {
 public:
  hdf5_attributes(hid_t root, const std::filesystem::path& file) : root_(root), file_(file) {}
  std::int64_t integer(const char* name) const override {
    return read_int_attribute(root_, name, who, file_);
  }
  double real(const char* name) const override {
    return read_double_attribute(root_, name, who, file_);
  }
  std::string text(const char* name) const override {
    return read_string_attribute(root_, name, who, file_);
  }

 private:
  hid_t root_;
  const std::filesystem::path& file_;
};

// Everything a checkpoint must be before a field is touched. Collective (HDF5 reads).
staged read_checked(const distributed_layout& layout, const std::filesystem::path& file,
                    std::uint64_t fingerprint, const std::vector<checkpoint_field>& fields) {
  hdf5_handle h5 = open_parallel(file, layout.comm(), who);
  const hid_t root = h5.get();
  checkpoint_expectation run{checkpoint_format_version, fingerprint, layout.global_cells(), {}};
  for (const auto& f : fields) run.fields.push_back({f.name, field_type(f.components)});
  const checkpoint_header header = check_attributes(hdf5_attributes(root, file), run, who, file);
  staged result;
  result.step = {header.step, header.t, header.dt, header.scheme, file};
  const owned_rows rows = owned_rows_of(layout);
  for (const auto& f : fields) {
    const hdf5_handle dataset(
        checked(H5Dopen2(root, f.name.c_str(), H5P_DEFAULT), who, file, "H5Dopen2"), H5Dclose);
    const hdf5_handle space(checked(H5Dget_space(dataset.get()), who, file, "H5Dget_space"),
                            H5Sclose);
    hsize_t dims[2] = {0, 1};
    const int rank = H5Sget_simple_extent_dims(space.get(), dims, nullptr);
    if (rank != (f.components == 1 ? 1 : 2) ||
        dims[0] != static_cast<hsize_t>(layout.global_cells()) ||
        (rank == 2 && dims[1] != static_cast<hsize_t>(f.components))) {
      throw error(std::string(who) + ": " + file.string() + ": dataset '" + f.name +
                  "' has the wrong shape");
    }
    row_buffer buffer(rows, f.components, space.get(), who, file);
    const hdf5_handle transfer = collective_transfer(who, file);
    if (H5Dread(dataset.get(), H5T_NATIVE_DOUBLE, buffer.memory_space(), buffer.file_space(),
                transfer.get(), buffer.data()) < 0) {
      throw error(std::string(who) + ": " + file.string() + ": dataset '" + f.name +
                  "' cannot be read: corrupt (its checksum does not match) or truncated");
    }
    // Back from ascending global id to local order.
    const auto width = static_cast<std::size_t>(f.components);
    std::vector<double> local(rows.cells.size() * width);
    buffer.for_each_row([&](std::size_t k, const double* row) {
      std::copy_n(row, width, local.data() + static_cast<std::size_t>(rows.cells[k]) * width);
    });
    result.values.push_back(std::move(local));
  }
  return result;
}

}  // namespace

checkpoint_step restart_records(const distributed_layout& layout, const std::filesystem::path& from,
                                const std::vector<checkpoint_field>& fields) {
  // Refused alike on every rank: the fields are the same everywhere.
  for (std::size_t f = 0; f < fields.size(); ++f) {
    for (std::size_t g = 0; g < f; ++g) {
      if (fields[f].name == fields[g].name) {
        throw agreed_error(std::string(who) + ": two fields named '" + fields[f].name +
                           "' (each is read from the dataset of its name)");
      }
    }
  }
  const mpi::communicator comm(layout.comm());
  const std::uint64_t fingerprint = mesh_fingerprint(layout);
  // The candidates, as rank 0 sees them (one file system), newest first.
  std::vector<std::filesystem::path> candidates;
  std::string listing;
  if (comm.rank() == 0) {
    std::error_code code;
    if (std::filesystem::is_directory(from, code)) {
      candidates = checkpoints_in(from);
      if (candidates.empty()) listing = std::string(who) + ": no checkpoint in " + from.string();
    } else if (std::filesystem::exists(from, code)) {
      candidates.push_back(from);
    } else {
      listing = std::string(who) + ": " + from.string() + " does not exist";
    }
  }
  mpi::agree(comm, listing);
  std::string joined;
  for (const auto& c : candidates) joined += c.string() + '\n';
  joined = comm.broadcast(joined);
  candidates.clear();
  for (std::size_t start = 0; start < joined.size();) {
    const std::size_t end = joined.find('\n', start);
    candidates.emplace_back(joined.substr(start, end - start));
    start = end + 1;
  }

  for (std::size_t k = 0; k < candidates.size(); ++k) {
    std::exception_ptr failure;
    staged read;
    try {
      read = read_checked(layout, candidates[k], fingerprint, fields);
    } catch (...) {
      failure = std::current_exception();
    }
    try {
      mpi::agree(comm, failure);
    } catch (const mpi::collective_error& e) {
      if (k + 1 == candidates.size()) throw;
      if (comm.rank() == 0) {
        std::fprintf(stderr, "%s: refused %s (%s); trying the previous checkpoint, %s\n", who,
                     candidates[k].string().c_str(), e.what(), candidates[k + 1].string().c_str());
        std::fflush(stderr);
      }
      continue;
    }
    for (std::size_t f = 0; f < fields.size(); ++f) {
      std::ranges::copy(read.values[f], fields[f].write);
    }
    return read.step;
  }
  throw agreed_error(std::string(who) + ": no checkpoint to restart from");  // not reached
}

}  // namespace detail

}  // namespace funcmesh
