// Format 2 on disk (see block_file.hpp): rank 0 lays the file out with serial HDF5 and
// every rank writes its rows with pwrite, so that the data goes to the disk as one large
// piece per dataset per rank, with no gather into global order and no HDF5 copy or filter.
#include "block_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstring>

#include <funcmesh/checkpoint/checkpoint_writer.hpp>
#include <funcmesh/core/error.hpp>

#include "hdf5_file.hpp"

namespace funcmesh::detail {

// The rows are written as the host holds them and declared little-endian.
static_assert(std::endian::native == std::endian::little,
              "funcmesh checkpoints (format 2) are written on little-endian hosts");

namespace {

void write_attributes(hid_t root, const std::filesystem::path& file, const block_file_contents& c,
                      const std::string& who) {
  write_attribute(root, "format_version", std::int64_t{checkpoint_format_version}, who, file);
  write_attribute(root, "mesh_fingerprint", static_cast<std::int64_t>(c.fingerprint), who, file);
  write_attribute(root, "global_cells", c.global_cells, who, file);
  write_attribute(root, "step", c.step, who, file);
  write_attribute(root, "time", c.t, who, file);
  write_attribute(root, "dt", c.dt, who, file);
  write_attribute(root, "scheme", c.scheme, who, file);
  write_attribute(root, "writer_ranks", static_cast<std::int64_t>(c.block_rows.size() - 1), who,
                  file);
  std::string names, types;
  for (std::size_t f = 0; f < c.names.size(); ++f) {
    if (f != 0) {
      names += ',';
      types += ',';
    }
    names += c.names[f];
    types += field_type(c.components[f]);
  }
  write_attribute(root, "fields", names, who, file);
  write_attribute(root, "field_types", types, who, file);
}

hdf5_handle simple_space(hsize_t rows, hsize_t columns, const std::string& who,
                         const std::filesystem::path& file) {
  const hsize_t dims[2] = {rows, columns};
  return {
      checked(H5Screate_simple(columns == 1 ? 1 : 2, dims, nullptr), who, file, "H5Screate_simple"),
      H5Sclose};
}

// A small dataset written whole (the block table).
template <class T>
void write_table(hid_t root, const char* name, hid_t file_type, hid_t memory_type,
                 const std::vector<T>& values, hsize_t columns, const std::string& who,
                 const std::filesystem::path& file) {
  const hdf5_handle space = simple_space(values.size() / columns, columns, who, file);
  const hdf5_handle dataset(
      checked(H5Dcreate2(root, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
              who, file, "H5Dcreate2"),
      H5Dclose);
  checked(H5Dwrite(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), who,
          file, (std::string("H5Dwrite of '") + name + "'").c_str());
}

}  // namespace

// A contiguous dataset, its space allocated now and never filled: the ranks write it.
std::uint64_t allocated_dataset(hid_t root, const char* name, hid_t type, hsize_t rows,
                                hsize_t columns, const std::string& who,
                                const std::filesystem::path& file) {
  const hdf5_handle space = simple_space(rows, columns, who, file);
  const hdf5_handle create(checked(H5Pcreate(H5P_DATASET_CREATE), who, file, "H5Pcreate"),
                           H5Pclose);
  checked(H5Pset_layout(create.get(), H5D_CONTIGUOUS), who, file, "H5Pset_layout");
  checked(H5Pset_alloc_time(create.get(), H5D_ALLOC_TIME_EARLY), who, file, "H5Pset_alloc_time");
  checked(H5Pset_fill_time(create.get(), H5D_FILL_TIME_NEVER), who, file, "H5Pset_fill_time");
  const hdf5_handle dataset(
      checked(H5Dcreate2(root, name, type, space.get(), H5P_DEFAULT, create.get(), H5P_DEFAULT),
              who, file, "H5Dcreate2"),
      H5Dclose);
  const haddr_t at = H5Dget_offset(dataset.get());
  if (at == HADDR_UNDEF) {
    throw error(who + ": " + file.string() + ": H5Dget_offset of '" + name + "' failed");
  }
  return at;
}

hdf5_handle create_aligned_file(const std::filesystem::path& file, const std::string& who) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const hdf5_handle access(checked(H5Pcreate(H5P_FILE_ACCESS), who, file, "H5Pcreate"), H5Pclose);
  checked(H5Pset_fapl_sec2(access.get()), who, file, "H5Pset_fapl_sec2");
  // Objects of 64 KiB or more start on a 4 KiB boundary: the rows' pwrites are page-aligned.
  checked(H5Pset_alignment(access.get(), 65536, 4096), who, file, "H5Pset_alignment");
  return {checked(H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()), who, file,
                  "H5Fcreate"),
          H5Fclose};
}

std::vector<std::uint64_t> create_block_file(const std::filesystem::path& file,
                                             const block_file_contents& contents,
                                             const std::string& who) {
  hdf5_handle h5 = create_aligned_file(file, who);
  const hid_t root = h5.get();
  write_attributes(root, file, contents, who);
  const auto rows = static_cast<hsize_t>(contents.global_cells);
  write_table(root, "block_rows", H5T_STD_I64LE, H5T_NATIVE_INT64, contents.block_rows, 1, who,
              file);
  write_table(root, "block_checksums", H5T_STD_U64LE, H5T_NATIVE_UINT64, contents.checksums,
              contents.names.size() + 1, who, file);
  std::vector<std::uint64_t> offsets;
  offsets.push_back(allocated_dataset(root, "global_id", H5T_STD_I64LE, rows, 1, who, file));
  for (std::size_t f = 0; f < contents.names.size(); ++f) {
    offsets.push_back(allocated_dataset(root, contents.names[f].c_str(), H5T_IEEE_F64LE, rows,
                                        static_cast<hsize_t>(contents.components[f]), who, file));
  }
  // The close writes the metadata and sets the file's length past the allocated rows.
  checked(H5Fclose(h5.release()), who, file, "H5Fclose");
  return offsets;
}

void sync_path(const std::filesystem::path& path, const std::string& who) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 || ::fsync(fd) != 0) {
    const int code = errno;
    if (fd >= 0) ::close(fd);
    throw error(who + ": " + path.string() + ": fsync failed: " + std::strerror(code));
  }
  ::close(fd);
}

namespace {
std::atomic<const char*> injected_failure{nullptr};
}  // namespace

void fail_next_checkpoint_write_for_testing(const char* reason) { injected_failure = reason; }

std::string write_block_pieces(const std::filesystem::path& file,
                               const std::vector<block_piece>& pieces, const std::string& who,
                               bool injectable) {
  if (const char* reason = injectable ? injected_failure.exchange(nullptr) : nullptr) {
    return who + ": " + file.string() + ": write failed: " + reason;
  }
  const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return who + ": " + file.string() + ": cannot open: " + std::strerror(errno);
  std::string failure;
  for (const block_piece& piece : pieces) {
    const char* data = static_cast<const char*>(piece.data);
    for (std::size_t done = 0; done < piece.bytes && failure.empty();) {
      const ssize_t n =
          ::pwrite(fd, data + done, piece.bytes - done, static_cast<off_t>(piece.offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        failure = who + ": " + file.string() +
                  ": write failed: " + (n < 0 ? std::strerror(errno) : "no progress");
      } else {
        done += static_cast<std::size_t>(n);
      }
    }
  }
  if (failure.empty() && ::fsync(fd) != 0) {
    failure = who + ": " + file.string() + ": fsync failed: " + std::strerror(errno);
  }
  if (::close(fd) != 0 && failure.empty()) {
    failure = who + ": " + file.string() + ": close failed: " + std::strerror(errno);
  }
  return failure;
}

namespace {

// An open dataset of the file, checked to have `rank` dimensions; its dimensions.
struct opened_dataset {
  hdf5_handle dataset;
  hsize_t dims[2] = {0, 1};
};
opened_dataset open_dataset(hid_t root, const std::string& name, int rank,
                            const std::filesystem::path& file, const std::string& who) {
  if (H5Lexists(root, name.c_str(), H5P_DEFAULT) <= 0) {
    throw error(who + ": " + file.string() + ": no dataset '" + name + "'");
  }
  opened_dataset d{
      {checked(H5Dopen2(root, name.c_str(), H5P_DEFAULT), who, file, "H5Dopen2"), H5Dclose}};
  const hdf5_handle space(checked(H5Dget_space(d.dataset.get()), who, file, "H5Dget_space"),
                          H5Sclose);
  if (H5Sget_simple_extent_ndims(space.get()) != rank) {
    throw error(who + ": " + file.string() + ": dataset '" + name + "' has the wrong shape");
  }
  H5Sget_simple_extent_dims(space.get(), d.dims, nullptr);
  return d;
}

// A small table read whole into `values` (converted to the memory type by HDF5).
template <class T>
void read_table(const opened_dataset& d, hid_t memory_type, std::vector<T>& values,
                const char* name, const std::filesystem::path& file, const std::string& who) {
  if (H5Dread(d.dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0) {
    throw error(who + ": " + file.string() + ": dataset '" + name + "' cannot be read");
  }
}

}  // namespace

block_read_plan read_block_plan(hid_t root, const std::filesystem::path& file,
                                const checkpoint_header& header, const checkpoint_expectation& run,
                                const std::string& who) {
  const std::string where = who + ": " + file.string() + ": ";
  block_read_plan plan;
  plan.header = header;
  const std::int64_t writers = read_int_attribute(root, "writer_ranks", who, file);
  if (writers < 1 || writers > (std::int64_t{1} << 26)) {
    throw error(where + "writer_ranks is " + std::to_string(writers));
  }
  const auto blocks = static_cast<std::size_t>(writers);
  const opened_dataset rows = open_dataset(root, "block_rows", 1, file, who);
  if (rows.dims[0] != blocks + 1) {
    throw error(where + "block_rows has " + std::to_string(rows.dims[0]) + " entries for " +
                std::to_string(writers) + " writer ranks");
  }
  plan.block_rows.resize(blocks + 1);
  read_table(rows, H5T_NATIVE_INT64, plan.block_rows, "block_rows", file, who);
  check_block_rows(plan.block_rows, writers, run.global_cells, who, file);

  const std::vector<std::string> names =
      split_list(read_string_attribute(root, "fields", who, file));
  const std::size_t columns = names.size() + 1;
  if (blocks * columns > std::size_t{1} << 30) {  // broadcast with int counts
    throw error(where + "a block table of " + std::to_string(blocks) + " x " +
                std::to_string(columns) + " checksums is too large");
  }
  const opened_dataset sums = open_dataset(root, "block_checksums", 2, file, who);
  if (sums.dims[0] != blocks || sums.dims[1] != columns) {
    throw error(where + "block_checksums is not (writer_ranks, fields + 1)");
  }
  std::vector<std::uint64_t> stored(blocks * columns);
  read_table(sums, H5T_NATIVE_UINT64, stored, "block_checksums", file, who);

  // The run's columns: global_id, then its fields, each with its place in the file.
  std::vector<std::size_t> column_of{0};
  std::vector<std::pair<std::string, int>> wanted{{"global_id", 0}};
  for (const auto& f : run.fields) {
    column_of.push_back(1 +
                        static_cast<std::size_t>(std::ranges::find(names, f.name) - names.begin()));
    const int components =
        f.type == "f64" ? 1 : std::max(1, std::atoi(f.type.c_str() + std::strlen("f64x")));
    wanted.emplace_back(f.name, components);
  }
  std::error_code code;
  const auto file_bytes = static_cast<std::uint64_t>(std::filesystem::file_size(file, code));
  for (const auto& [name, components] : wanted) {
    const opened_dataset d = open_dataset(root, name, components <= 1 ? 1 : 2, file, who);
    const hdf5_handle create(
        checked(H5Dget_create_plist(d.dataset.get()), who, file, "H5Dget_create_plist"), H5Pclose);
    const hdf5_handle type(checked(H5Dget_type(d.dataset.get()), who, file, "H5Dget_type"),
                           H5Tclose);
    const hid_t expected = components == 0 ? H5T_STD_I64LE : H5T_IEEE_F64LE;
    if (d.dims[0] != static_cast<hsize_t>(run.global_cells) ||
        (components > 1 && d.dims[1] != static_cast<hsize_t>(components))) {
      throw error(where + "dataset '" + name + "' has the wrong shape");
    }
    if (H5Pget_layout(create.get()) != H5D_CONTIGUOUS || H5Tequal(type.get(), expected) <= 0) {
      throw error(where + "dataset '" + name + "' is not a contiguous " +
                  (components == 0 ? "int64" : "float64") + " little-endian dataset");
    }
    const haddr_t at = H5Dget_offset(d.dataset.get());
    const std::uint64_t bytes = d.dims[0] * static_cast<std::uint64_t>(std::max(components, 1)) * 8;
    if (code) throw error(where + "cannot read its size: " + code.message());
    if (at == HADDR_UNDEF || at + bytes > file_bytes) {
      throw error(where + "truncated (dataset '" + name + "' ends past the end of the file)");
    }
    plan.offsets.push_back(at);
  }
  plan.checksums.reserve(blocks * column_of.size());
  for (std::size_t b = 0; b < blocks; ++b) {
    for (const std::size_t c : column_of) plan.checksums.push_back(stored[b * columns + c]);
  }
  return plan;
}

std::string read_block_bytes(const std::filesystem::path& file, std::uint64_t offset,
                             std::size_t bytes, void* into, const std::string& who) {
  if (bytes == 0) return {};
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return who + ": " + file.string() + ": cannot open: " + std::strerror(errno);
  std::string failure;
  char* out = static_cast<char*>(into);
  for (std::size_t done = 0; done < bytes && failure.empty();) {
    const ssize_t n = ::pread(fd, out + done, bytes - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      failure = who + ": " + file.string() + ": read failed: " + std::strerror(errno);
    } else if (n == 0) {
      failure = who + ": " + file.string() + ": truncated (its rows end early)";
    } else {
      done += static_cast<std::size_t>(n);
    }
  }
  ::close(fd);
  return failure;
}

}  // namespace funcmesh::detail
