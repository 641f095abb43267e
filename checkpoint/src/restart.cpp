// restart: verify a checkpoint (format, mesh fingerprint, field list, then every dataset
// read with its checksums checked) into staging buffers, agree, and only then fill the
// fields; "latest" walks the directory's checkpoints newest first. Format 2 (blocks by
// writer rank) is read block-wise and placed by global id; format 1 (global order) by rows.
#include <funcmesh/checkpoint/restart.hpp>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <exception>
#include <future>
#include <optional>
#include <string_view>
#include <system_error>

#include <funcmesh/comm/collective_error.hpp>
#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/mpi_error.hpp>

#include "block_checksum.hpp"
#include "block_file.hpp"
#include "checkpoint_attributes.hpp"
#include "checkpoint_files.hpp"
#include "hdf5_file.hpp"
#include "place_by_global_id.hpp"
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

using setup_detail::raw_vector;

// The layout's mesh fingerprint: its local part is computed on a second thread from the
// start of restart (hashing every cell costs as much as reading the checkpoint from the
// page cache) while the blocks are read; the total, when first needed (collective).
class fingerprint_in_progress {
 public:
  explicit fingerprint_in_progress(const distributed_layout& layout) : layout_(layout) {
    auto local = [&layout] { return local_fingerprint_sum(layout); };
    try {
      local_ = std::async(std::launch::async, local);
    } catch (const std::system_error&) {
      local_ = std::async(std::launch::deferred, local);  // no thread: computed at get()
    }
  }
  std::uint64_t get() {
    if (!value_) value_ = fingerprint_of_sum(layout_, local_.get());
    return *value_;
  }

 private:
  const distributed_layout& layout_;
  std::future<std::uint64_t> local_;
  std::optional<std::uint64_t> value_;
};

struct staged {
  checkpoint_step step;
  std::vector<raw_vector<double>> values;  // per field, owned cells in local order
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

// Format 1: each rank reads its owned rows by global id (collective parallel HDF5), every
// dataset through its Fletcher32 checksums.
staged read_rows(const distributed_layout& layout, const std::filesystem::path& file,
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
    raw_vector<double> local(rows.cells.size() * width);
    buffer.for_each_row([&](std::size_t k, const double* row) {
      std::copy_n(row, width, local.data() + static_cast<std::size_t>(rows.cells[k]) * width);
    });
    result.values.push_back(std::move(local));
  }
  return result;
}

// Rank 0's plan of a format-2 file, on every rank.
void broadcast_plan(const mpi::communicator& comm, block_read_plan& plan) {
  std::vector<std::uint64_t> sizes{plan.block_rows.size(),
                                   plan.checksums.size(),
                                   plan.offsets.size(),
                                   static_cast<std::uint64_t>(plan.header.format_version),
                                   static_cast<std::uint64_t>(plan.header.step),
                                   plan.header.mesh_fingerprint};
  const MPI_Comm raw = comm.get();
  check_mpi(MPI_Bcast(sizes.data(), 6, MPI_UINT64_T, 0, raw), "MPI_Bcast (restart plan)", raw);
  plan.block_rows.resize(sizes[0]);
  plan.checksums.resize(sizes[1]);
  plan.offsets.resize(sizes[2]);
  plan.header.format_version = static_cast<std::int64_t>(sizes[3]);
  plan.header.step = static_cast<std::int64_t>(sizes[4]);
  plan.header.mesh_fingerprint = sizes[5];
  double times[2] = {plan.header.t, plan.header.dt};
  check_mpi(MPI_Bcast(times, 2, MPI_DOUBLE, 0, raw), "MPI_Bcast (restart plan)", raw);
  plan.header.t = times[0];
  plan.header.dt = times[1];
  check_mpi(MPI_Bcast(plan.block_rows.data(), static_cast<int>(sizes[0]), MPI_INT64_T, 0, raw),
            "MPI_Bcast (restart plan)", raw);
  check_mpi(MPI_Bcast(plan.checksums.data(), static_cast<int>(sizes[1]), MPI_UINT64_T, 0, raw),
            "MPI_Bcast (restart plan)", raw);
  check_mpi(MPI_Bcast(plan.offsets.data(), static_cast<int>(sizes[2]), MPI_UINT64_T, 0, raw),
            "MPI_Bcast (restart plan)", raw);
  plan.header.scheme = comm.broadcast(plan.header.scheme);
}

// Format 2: each rank reads whole blocks (one contiguous range of rows: on the writers'
// rank count, block r; else blocks spread evenly), checks their checksums, and the rows
// go to the cells' owners by global id. Read back by the layout that wrote it (each rank's
// block is its own cells in its own order), the rows need no placing.
staged read_blocks(const distributed_layout& layout, const std::filesystem::path& file,
                   const block_read_plan& plan, fingerprint_in_progress& fingerprint,
                   const std::vector<checkpoint_field>& fields) {
  const mpi::communicator comm(layout.comm());
  const auto ranks = static_cast<std::size_t>(comm.size());
  const auto me = static_cast<std::size_t>(comm.rank());
  const std::size_t blocks = plan.block_rows.size() - 1, columns = fields.size() + 1;
  const std::int64_t share =
      std::max<std::int64_t>(1, (layout.global_cells() + comm.size() - 1) / comm.size());
  auto reader = [&](std::size_t b) {
    if (blocks == ranks) return b;
    return static_cast<std::size_t>(plan.block_rows[b] / share);  // by its first row
  };
  std::size_t low = 0;
  while (low < blocks && reader(low) < me) ++low;
  std::size_t high = low;
  while (high < blocks && reader(high) == me) ++high;
  const std::int64_t first = plan.block_rows[low];
  const auto rows = static_cast<std::size_t>(plan.block_rows[high] - first);

  std::string failure;
  raw_vector<std::int64_t> ids(rows);
  std::vector<raw_vector<double>> values(fields.size());
  std::vector<int> widths{1};
  std::vector<void*> into{ids.data()};
  for (std::size_t f = 0; f < fields.size(); ++f) {
    values[f].resize(rows * static_cast<std::size_t>(fields[f].components));
    widths.push_back(fields[f].components);
    into.push_back(values[f].data());
  }
  for (std::size_t c = 0; c < columns && failure.empty(); ++c) {
    const std::size_t row_bytes = static_cast<std::size_t>(widths[c]) * 8;
    failure =
        read_block_bytes(file, plan.offsets[c] + static_cast<std::uint64_t>(first) * row_bytes,
                         rows * row_bytes, into[c], who);
    for (std::size_t b = low; b < high && failure.empty(); ++b) {
      const auto at = static_cast<std::size_t>(plan.block_rows[b] - first) * row_bytes;
      const auto bytes =
          static_cast<std::size_t>(plan.block_rows[b + 1] - plan.block_rows[b]) * row_bytes;
      if (checksum_of(static_cast<const char*>(into[c]) + at, bytes) !=
          plan.checksums[b * columns + c]) {
        failure = std::string(who) + ": " + file.string() + ": dataset '" +
                  (c == 0 ? std::string("global_id") : fields[c - 1].name) +
                  "', block of writer rank " + std::to_string(b) +
                  ": its checksum does not match (corrupt)";
      }
    }
  }
  mpi::agree(comm, failure);
  // The same on every rank: the file's fingerprint was broadcast.
  if (fingerprint.get() != plan.header.mesh_fingerprint) {
    try {
      another_mesh(layout.global_cells(), layout.global_cells(), who, file);
    } catch (const error& e) {
      throw agreed_error(e.what());
    }
  }

  staged result;
  result.step = {plan.header.step, plan.header.t, plan.header.dt, plan.header.scheme, file};
  const auto owned = static_cast<std::size_t>(layout.owned_count());
  int own_order = blocks == ranks && low == me && high == me + 1 && rows == owned &&
                  std::equal(ids.begin(), ids.end(), layout.mesh().global_cell.begin());
  const MPI_Comm raw = layout.comm();
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &own_order, 1, MPI_INT, MPI_LAND, raw),
            "MPI_Allreduce (restart)", raw);
  if (own_order != 0) {
    result.values = std::move(values);
  } else {
    std::vector<int> components;
    for (const auto& f : fields) components.push_back(f.components);
    result.values = place_by_global_id(layout, ids, values, components, who, file);
  }
  return result;
}

// Everything a checkpoint must be before a field is touched. Collective: rank 0 reads the
// attributes (and a format-2 file's plan), agreed, then each format's reader.
staged read_checked(const distributed_layout& layout, const std::filesystem::path& file,
                    fingerprint_in_progress& fingerprint,
                    const std::vector<checkpoint_field>& fields) {
  const mpi::communicator comm(layout.comm());
  // Format 2's fingerprint is compared once the blocks are read (the cell count now).
  checkpoint_expectation run{checkpoint_format_version, 0, layout.global_cells(), {}, true};
  for (const auto& f : fields) run.fields.push_back({f.name, field_type(f.components)});
  block_read_plan plan = mpi::on_root_agreed(comm, [&] {
                           const hdf5_handle h5 = open_serial(file, who);
                           const checkpoint_header header =
                               check_attributes(hdf5_attributes(h5.get(), file), run, who, file);
                           if (header.format_version == 1)
                             return block_read_plan{header, {}, {}, {}};
                           return read_block_plan(h5.get(), file, header, run, who);
                         }).value_or(block_read_plan{});
  broadcast_plan(comm, plan);
  if (plan.header.format_version == 1) return read_rows(layout, file, fingerprint.get(), fields);
  return read_blocks(layout, file, plan, fingerprint, fields);
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
  fingerprint_in_progress fingerprint(layout);
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
