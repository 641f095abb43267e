// HDF5 helpers of the checkpoint module: handles, parallel files, attributes and the
// owned-row selections.
#include <algorithm>
#include <cstring>
#include <span>
#include <utility>

#include "hdf5_file.hpp"

namespace funcmesh::detail {

namespace {
// HDF5 prints its own error stack by default; funcmesh's messages say what failed.
hdf5_handle parallel_access(MPI_Comm comm, const std::string& who,
                            const std::filesystem::path& file) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  hdf5_handle fapl(checked(H5Pcreate(H5P_FILE_ACCESS), who, file, "H5Pcreate"), H5Pclose);
  checked(H5Pset_fapl_mpio(fapl.get(), comm, MPI_INFO_NULL), who, file, "H5Pset_fapl_mpio");
  return fapl;
}
}  // namespace

hdf5_handle open_parallel(const std::filesystem::path& file, MPI_Comm comm,
                          const std::string& who) {
  const hdf5_handle fapl = parallel_access(comm, who, file);
  const hid_t id = H5Fopen(file.c_str(), H5F_ACC_RDONLY, fapl.get());
  if (id < 0) throw error(who + ": " + file.string() + ": not an HDF5 file HDF5 can open");
  return {id, H5Fclose};
}

hdf5_handle open_serial(const std::filesystem::path& file, const std::string& who) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const hid_t id = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0) throw error(who + ": " + file.string() + ": not an HDF5 file HDF5 can open");
  return {id, H5Fclose};
}

namespace {
template <class T>
void write_scalar(hid_t file, const char* name, hid_t type, const T& value, const std::string& who,
                  const std::filesystem::path& path) {
  const hdf5_handle space(checked(H5Screate(H5S_SCALAR), who, path, "H5Screate"), H5Sclose);
  const hdf5_handle attribute(
      checked(H5Acreate2(file, name, type, space.get(), H5P_DEFAULT, H5P_DEFAULT), who, path,
              "H5Acreate2"),
      H5Aclose);
  checked(H5Awrite(attribute.get(), type, &value), who, path, "H5Awrite");
}
template <class T>
T read_scalar(hid_t file, const char* name, hid_t type, const std::string& who,
              const std::filesystem::path& path) {
  if (H5Aexists(file, name) <= 0) {
    throw error(who + ": " + path.string() + ": no attribute '" + name +
                "' (not a funcmesh checkpoint, or written by another version)");
  }
  const hdf5_handle attribute(checked(H5Aopen(file, name, H5P_DEFAULT), who, path, "H5Aopen"),
                              H5Aclose);
  T value{};
  checked(H5Aread(attribute.get(), type, &value), who, path, "H5Aread");
  return value;
}
}  // namespace

void write_attribute(hid_t file, const char* name, std::int64_t value, const std::string& who,
                     const std::filesystem::path& path) {
  write_scalar(file, name, H5T_NATIVE_INT64, value, who, path);
}
void write_attribute(hid_t file, const char* name, double value, const std::string& who,
                     const std::filesystem::path& path) {
  write_scalar(file, name, H5T_NATIVE_DOUBLE, value, who, path);
}
void write_attribute(hid_t file, const char* name, const std::string& value, const std::string& who,
                     const std::filesystem::path& path) {
  const hdf5_handle type(checked(H5Tcopy(H5T_C_S1), who, path, "H5Tcopy"), H5Tclose);
  checked(H5Tset_size(type.get(), std::max<std::size_t>(1, value.size())), who, path,
          "H5Tset_size");
  const std::string padded = value.empty() ? std::string(1, '\0') : value;
  const hdf5_handle space(checked(H5Screate(H5S_SCALAR), who, path, "H5Screate"), H5Sclose);
  const hdf5_handle attribute(
      checked(H5Acreate2(file, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), who, path,
              "H5Acreate2"),
      H5Aclose);
  checked(H5Awrite(attribute.get(), type.get(), padded.data()), who, path, "H5Awrite");
}

std::int64_t read_int_attribute(hid_t file, const char* name, const std::string& who,
                                const std::filesystem::path& path) {
  return read_scalar<std::int64_t>(file, name, H5T_NATIVE_INT64, who, path);
}
double read_double_attribute(hid_t file, const char* name, const std::string& who,
                             const std::filesystem::path& path) {
  return read_scalar<double>(file, name, H5T_NATIVE_DOUBLE, who, path);
}
std::string read_string_attribute(hid_t file, const char* name, const std::string& who,
                                  const std::filesystem::path& path) {
  if (H5Aexists(file, name) <= 0) {
    throw error(who + ": " + path.string() + ": no attribute '" + name + "'");
  }
  const hdf5_handle attribute(checked(H5Aopen(file, name, H5P_DEFAULT), who, path, "H5Aopen"),
                              H5Aclose);
  const hdf5_handle type(checked(H5Aget_type(attribute.get()), who, path, "H5Aget_type"), H5Tclose);
  if (H5Tget_class(type.get()) != H5T_STRING || H5Tis_variable_str(type.get()) > 0) {
    throw error(who + ": " + path.string() + ": attribute '" + name +
                "' is not a fixed-length string");
  }
  const std::size_t size = H5Tget_size(type.get());
  if (size == 0 || size > (std::size_t{1} << 20)) {
    throw error(who + ": " + path.string() + ": attribute '" + name + "' has a length of " +
                std::to_string(size) + " bytes");
  }
  std::string value(size, '\0');
  checked(H5Aread(attribute.get(), type.get(), value.data()), who, path, "H5Aread");
  value.resize(std::strlen(value.c_str()));
  return value;
}

owned_rows owned_rows_of(const distributed_layout& layout) {
  // Sorted as (global id, cell) pairs: an indirect comparison through the global ids is
  // a cache miss per compare, several times slower on millions of cells.
  const auto& gid = layout.mesh().global_cell;
  std::vector<std::pair<index_t, index_t>> order(static_cast<std::size_t>(layout.owned_count()));
  for (std::size_t c = 0; c < order.size(); ++c) {
    order[c] = {gid[c], static_cast<index_t>(c)};
  }
  if (!std::ranges::is_sorted(order)) std::ranges::sort(order);
  owned_rows rows;
  rows.cells.reserve(order.size());
  rows.global.reserve(order.size());
  for (const auto& [global, cell] : order) {
    const auto g = static_cast<hsize_t>(global);
    rows.cells.push_back(cell);
    rows.global.push_back(g);
    if (!rows.runs.empty() && rows.runs.back().first + rows.runs.back().second == g) {
      ++rows.runs.back().second;
    } else {
      rows.runs.emplace_back(g, 1);
    }
  }
  return rows;
}

namespace {

// `runs` selected in a copy of `space`. Or-ing runs one by one into one selection costs
// HDF5 time in the runs selected so far (3 s for 13,200 runs); halves combined pairwise
// cost time in the runs only, times a logarithm (8 ms). (HDF5 1.10.8's H5Smodify_select,
// or-ing the combined halves into `space` in place, leaves a selection H5Dwrite refuses.)
hdf5_handle select_runs(hid_t space, std::span<const std::pair<hsize_t, hsize_t>> runs,
                        int components, hsize_t first, const std::string& who,
                        const std::filesystem::path& path) {
  constexpr std::size_t few = 16;
  if (runs.size() > few) {
    const std::size_t half = runs.size() / 2;
    const hdf5_handle low = select_runs(space, runs.first(half), components, first, who, path);
    const hdf5_handle high = select_runs(space, runs.subspan(half), components, first, who, path);
    return {checked(H5Scombine_select(low.get(), H5S_SELECT_OR, high.get()), who, path,
                    "H5Scombine_select"),
            H5Sclose};
  }
  hdf5_handle part(checked(H5Scopy(space), who, path, "H5Scopy"), H5Sclose);
  bool set = true;
  for (const auto& [start, count] : runs) {
    const hsize_t offset[2] = {start - first, 0};
    const hsize_t extent[2] = {count, static_cast<hsize_t>(components)};
    checked(H5Sselect_hyperslab(part.get(), set ? H5S_SELECT_SET : H5S_SELECT_OR, offset, nullptr,
                                extent, nullptr),
            who, path, "H5Sselect_hyperslab");
    set = false;
  }
  return part;
}

}  // namespace

hdf5_handle rows_selected(hid_t space, const owned_rows& rows, int components,
                          const std::string& who, const std::filesystem::path& path,
                          hsize_t first) {
  if (rows.runs.empty()) {
    hdf5_handle none(checked(H5Scopy(space), who, path, "H5Scopy"), H5Sclose);
    checked(H5Sselect_none(none.get()), who, path, "H5Sselect_none");
    return none;
  }
  return select_runs(space, rows.runs, components, first, who, path);
}

hdf5_handle packed_space(std::size_t rows, int components, const std::string& who,
                         const std::filesystem::path& file) {
  // The same rank as the file's dataspace: HDF5 maps a one-run selection onto it per chunk,
  // where a flat buffer against a (cells x components) selection is mapped element by
  // element.
  const hsize_t dims[2] = {static_cast<hsize_t>(rows), static_cast<hsize_t>(components)};
  hdf5_handle memory(checked(H5Screate_simple(components == 1 ? 1 : 2, dims, nullptr), who, file,
                             "H5Screate_simple"),
                     H5Sclose);
  if (rows == 0) checked(H5Sselect_none(memory.get()), who, file, "H5Sselect_none");
  return memory;
}

hdf5_handle collective_transfer(const std::string& who, const std::filesystem::path& file) {
  hdf5_handle transfer(checked(H5Pcreate(H5P_DATASET_XFER), who, file, "H5Pcreate"), H5Pclose);
  checked(H5Pset_dxpl_mpio(transfer.get(), H5FD_MPIO_COLLECTIVE), who, file, "H5Pset_dxpl_mpio");
  return transfer;
}

std::string field_type(int components) {
  return components == 1 ? "f64" : "f64x" + std::to_string(components);
}

}  // namespace funcmesh::detail
