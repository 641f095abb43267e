// checkpoint_writer: one collective HDF5 file per checkpoint, written to NAME.h5.tmp,
// closed, fsync'ed and renamed by rank 0 once every rank has finished, then the oldest
// beyond `keep` deleted. Every failure is agreed, so every rank throws together.
#include <funcmesh/checkpoint/checkpoint_writer.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <set>
#include <system_error>

#include <funcmesh/checkpoint/mesh_fingerprint.hpp>
#include <funcmesh/comm/communicator.hpp>

#include "checkpoint_files.hpp"
#include "hdf5_file.hpp"
#include "row_buffer.hpp"

namespace funcmesh {

namespace {

constexpr const char* who = "funcmesh::checkpoint_writer::write";

// Refused alike on every rank: the fields are the same everywhere.
void check_fields(const std::vector<detail::checkpoint_field>& fields) {
  if (fields.empty()) throw agreed_error(std::string(who) + ": no fields to write");
  std::set<std::string> names;
  for (const auto& f : fields) {
    if (f.name.empty() || f.name.find_first_of("/,") != std::string::npos || f.name[0] == '.') {
      throw agreed_error(std::string(who) + ": field name '" + f.name +
                         "' cannot name a dataset (give every field a name without '/' or ',')");
    }
    if (!names.insert(f.name).second) {
      throw agreed_error(std::string(who) + ": two fields named '" + f.name + "'");
    }
  }
}

// Flushes `path` (a file or a directory) to the disk; errors name it.
void sync_path(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0 || ::fsync(fd) != 0) {
    const int code = errno;
    if (fd >= 0) ::close(fd);
    throw error(std::string(who) + ": " + path.string() + ": fsync failed: " + std::strerror(code));
  }
  ::close(fd);
}

// Runs one collective stage of the file's writing on every rank, then agrees: a rank whose
// HDF5 call failed (a full disk shows on the rank that flushes metadata, not on all) must
// not leave the others waiting in the next collective call; all close the file together.
template <class Stage>
void agreed_stage(const mpi::communicator& comm, Stage&& stage) {
  std::exception_ptr failure;
  try {
    stage();
  } catch (...) {
    failure = std::current_exception();
  }
  mpi::agree(comm, failure);
}

void write_attributes(hid_t root, const distributed_layout& layout,
                      const std::filesystem::path& file, const time::step_info& step,
                      const checkpoint_options& options, std::uint64_t fingerprint,
                      const std::vector<detail::checkpoint_field>& fields) {
  using namespace detail;
  write_attribute(root, "format_version", std::int64_t{checkpoint_format_version}, who, file);
  write_attribute(root, "mesh_fingerprint", static_cast<std::int64_t>(fingerprint), who, file);
  write_attribute(root, "global_cells", static_cast<std::int64_t>(layout.global_cells()), who,
                  file);
  write_attribute(root, "step", static_cast<std::int64_t>(step.step), who, file);
  write_attribute(root, "time", step.t, who, file);
  write_attribute(root, "dt", step.dt, who, file);
  write_attribute(root, "scheme", options.scheme, who, file);
  write_attribute(root, "writer_ranks", static_cast<std::int64_t>(layout.size()), who, file);
  std::string names, types;
  for (const auto& f : fields) {
    if (!names.empty()) {
      names += ',';
      types += ',';
    }
    names += f.name;
    types += field_type(f.components);
  }
  write_attribute(root, "fields", names, who, file);
  write_attribute(root, "field_types", types, who, file);
}

// One field as a chunked, checksummed (cells x components) dataset in global id order.
void write_dataset(hid_t root, const distributed_layout& layout, const detail::owned_rows& rows,
                   const std::filesystem::path& file, const detail::checkpoint_field& f) {
  using namespace detail;
  const auto global = static_cast<hsize_t>(layout.global_cells());
  const int rank = f.components == 1 ? 1 : 2;
  const hsize_t dims[2] = {global, static_cast<hsize_t>(f.components)};
  const hdf5_handle space(
      checked(H5Screate_simple(rank, dims, nullptr), who, file, "H5Screate_simple"), H5Sclose);
  // Chunks of about 1 MiB: the checksum filter works per chunk.
  const hsize_t rows_per_chunk = std::clamp<hsize_t>(
      (hsize_t{1} << 17) / static_cast<hsize_t>(f.components), 1, std::max<hsize_t>(global, 1));
  const hsize_t chunk[2] = {rows_per_chunk, static_cast<hsize_t>(f.components)};
  const hdf5_handle create(checked(H5Pcreate(H5P_DATASET_CREATE), who, file, "H5Pcreate"),
                           H5Pclose);
  checked(H5Pset_chunk(create.get(), rank, chunk), who, file, "H5Pset_chunk");
  checked(H5Pset_fletcher32(create.get()), who, file, "H5Pset_fletcher32");
  // Parallel HDF5 allocates every chunk when the dataset is created; with a fill value it
  // would also write (and checksum) every chunk full of zeros first, doubling the bytes
  // written. Every row is written just after.
  checked(H5Pset_fill_time(create.get(), H5D_FILL_TIME_NEVER), who, file, "H5Pset_fill_time");
  const hdf5_handle dataset(checked(H5Dcreate2(root, f.name.c_str(), H5T_NATIVE_DOUBLE, space.get(),
                                               H5P_DEFAULT, create.get(), H5P_DEFAULT),
                                    who, file, "H5Dcreate2"),
                            H5Dclose);
  // This rank's rows, in ascending global id.
  row_buffer buffer(rows, f.components, space.get(), who, file);
  const auto width = static_cast<std::size_t>(f.components);
  buffer.for_each_row([&](std::size_t k, double* row) {
    std::copy_n(f.read + static_cast<std::size_t>(rows.cells[k]) * width, width, row);
  });
  const hdf5_handle transfer = collective_transfer(who, file);
  checked(H5Dwrite(dataset.get(), H5T_NATIVE_DOUBLE, buffer.memory_space(), buffer.file_space(),
                   transfer.get(), buffer.data()),
          who, file, ("H5Dwrite of '" + f.name + "'").c_str());
}

// The file's size: the data, one checksum per chunk, and generous room for the metadata.
off_t reserved_bytes(const distributed_layout& layout,
                     const std::vector<detail::checkpoint_field>& fields) {
  off_t bytes = off_t{1} << 20;
  for (const auto& f : fields) {
    bytes += static_cast<off_t>(layout.global_cells()) * f.components * 8 + (off_t{1} << 14);
  }
  return bytes;
}

// Rank 0 reserves the file's size on the disk before HDF5 opens it. HDF5 1.10's collective
// calls are not fault-tolerant: a write that fails on the rank that writes metadata (a
// full disk, a file size limit) leaves the other ranks waiting inside HDF5. A disk that
// cannot hold the checkpoint is found here instead, by every rank together. `created`:
// HDF5 has created (and truncated) the file; the blocks are allocated again without
// changing its size (FALLOC_FL_KEEP_SIZE), so that HDF5's own writes cannot run out of
// space. Before, the size is reserved as the file's length, which a file size limit
// (ulimit -f) also refuses.
void reserve_space(const distributed_layout& layout, const std::filesystem::path& file,
                   const std::vector<detail::checkpoint_field>& fields, bool created) {
  const mpi::communicator comm(layout.comm());
  std::string failure;
  if (comm.rank() == 0) {
    const off_t bytes = reserved_bytes(layout, fields);
    const int fd = created ? ::open(file.c_str(), O_WRONLY)
                           : ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int code = fd < 0 ? errno : 0;
    if (fd >= 0) {
      if (!created) {
        code = ::posix_fallocate(fd, 0, bytes);
      } else if (::fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, bytes) != 0) {
        // A file system without fallocate: posix_fallocate emulated the first reservation.
        code = errno == EOPNOTSUPP ? 0 : errno;
      }
      ::close(fd);
    }
    if (code != 0) {
      failure = std::string(who) + ": " + file.string() + ": cannot reserve " +
                std::to_string(bytes) + " bytes for the checkpoint: " + std::strerror(code);
      if (!created) {
        std::error_code ignored;
        std::filesystem::remove(file, ignored);
      }
    }
  }
  mpi::agree(comm, failure);
}

void write_file(const distributed_layout& layout, const detail::owned_rows& rows,
                const std::filesystem::path& file, const time::step_info& step,
                const checkpoint_options& options, std::uint64_t fingerprint,
                const std::vector<detail::checkpoint_field>& fields) {
  const mpi::communicator comm(layout.comm());
  detail::hdf5_handle h5;
  agreed_stage(comm, [&] { h5 = detail::create_parallel(file, layout.comm(), who); });
  reserve_space(layout, file, fields, true);
  const hid_t root = h5.get();
  agreed_stage(comm,
               [&] { write_attributes(root, layout, file, step, options, fingerprint, fields); });
  for (const auto& f : fields) {
    agreed_stage(comm, [&] { write_dataset(root, layout, rows, file, f); });
  }
  agreed_stage(comm,
               [&] { detail::checked(H5Fflush(root, H5F_SCOPE_GLOBAL), who, file, "H5Fflush"); });
  h5.reset();
}

}  // namespace

checkpoint_writer::checkpoint_writer(const distributed_layout& layout, std::filesystem::path dir,
                                     checkpoint_options options)
    : layout_(layout), dir_(std::move(dir)), options_(std::move(options)) {
  const mpi::communicator comm(layout_.comm());
  std::string failure;
  if (options_.keep < 1) {
    failure = "funcmesh::checkpoint_writer: keep " + std::to_string(options_.keep) +
              " (keep at least the newest checkpoint)";
  } else if (comm.rank() == 0) {
    std::error_code code;
    std::filesystem::create_directories(dir_, code);
    if (code || !std::filesystem::is_directory(dir_)) {
      failure = "funcmesh::checkpoint_writer: cannot create the checkpoint directory " +
                dir_.string() + (code ? ": " + code.message() : "");
    }
  }
  mpi::agree(comm, failure);
  fingerprint_ = mesh_fingerprint(layout_);
  rows_ = std::make_shared<const detail::owned_rows>(detail::owned_rows_of(layout_));
}

std::filesystem::path checkpoint_writer::write_records(
    const time::step_info& step, const std::vector<detail::checkpoint_field>& fields) {
  check_fields(fields);
  const mpi::communicator comm(layout_.comm());
  const std::filesystem::path file = dir_ / detail::checkpoint_name(step.step);
  std::filesystem::path temporary = file;
  temporary += ".tmp";
  std::exception_ptr failure;
  reserve_space(layout_, temporary, fields, false);
  try {
    write_file(layout_, *rows_, temporary, step, options_, fingerprint_, fields);
  } catch (...) {
    failure = std::current_exception();
  }
  // Every rank has closed the file, or some failed: then no rank goes on, and the partial
  // file goes.
  try {
    mpi::agree(comm, failure);
  } catch (...) {
    std::error_code ignored;
    if (comm.rank() == 0) std::filesystem::remove(temporary, ignored);
    throw;
  }
  std::string finishing;
  if (comm.rank() == 0) {
    try {
      // The reservation's blocks past the end HDF5 wrote go back (a truncation to the
      // file's own size frees them).
      std::filesystem::resize_file(temporary, std::filesystem::file_size(temporary));
      sync_path(temporary);
      std::filesystem::rename(temporary, file);
      sync_path(dir_);
    } catch (const std::exception& e) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);  // never taken for a checkpoint
      finishing = e.what();
    }
  }
  mpi::agree(comm, finishing);
  // Only now, with the new one complete: the oldest beyond `keep`.
  std::string pruning;
  if (comm.rank() == 0) {
    std::vector<std::filesystem::path> all = detail::checkpoints_in(dir_);
    for (std::size_t k = static_cast<std::size_t>(options_.keep); k < all.size(); ++k) {
      std::error_code code;
      if (!std::filesystem::remove(all[k], code) && code) {
        pruning = std::string(who) + ": cannot delete the old checkpoint " + all[k].string() +
                  ": " + code.message();
      }
    }
  }
  mpi::agree(comm, pruning);
  return file;
}

}  // namespace funcmesh
