// read_mesh_file: the file opened on every rank through MPI-IO, its metadata checked, then
// each rank's rows read with collective hyperslab reads. Every phase ends in mpi::agree;
// within a phase no rank leaves a collective call out (a failed read is recorded and the
// remaining reads still made), and every HDF5 handle lives until the function returns or
// every rank throws together, so that collective closes match too.
#include <algorithm>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/mesh_file.hpp>
#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/cell_type.hpp>

#include "mesh_file_hdf5.hpp"
#include "mesh_file_schema.hpp"

namespace funcmesh {

namespace {

using mesh_file_detail::checked;
using mesh_file_detail::h5_handle;
namespace fs = std::filesystem;

constexpr std::string_view who = detail::mesh_file_reader_name;

struct element_handles {
  h5_handle types, offsets, nodes, ids, physical;
};

// Every handle of the open file, each opened once its path is known to exist.
struct open_file {
  h5_handle file, coordinates, tags, group_dimension, group_id, group_name;
  element_handles cells, boundary;
};

template <class F>
std::exception_ptr attempt(F&& f) {
  try {
    f();
    return nullptr;
  } catch (...) {
    return std::current_exception();
  }
}

// The file's metadata for the schema checks, opening the datasets it describes.
detail::mesh_file_metadata read_metadata(open_file& f, const fs::path& path) {
  const hid_t root = f.file.get();
  detail::mesh_file_metadata m;
  m.format = mesh_file_detail::read_string_attribute(root, "format", who, path);
  m.version = mesh_file_detail::read_int_attribute(root, "version", who, path);
  m.dimension = mesh_file_detail::read_int_attribute(root, "dimension", who, path);
  m.source = mesh_file_detail::read_string_attribute(root, "source", who, path);
  m.gmsh_tags = mesh_file_detail::read_int_attribute(root, "gmsh_tags", who, path);
  m.node_count = mesh_file_detail::read_int_attribute(root, "node_count", who, path);
  m.cell_count = mesh_file_detail::read_int_attribute(root, "cell_count", who, path);
  m.boundary_count = mesh_file_detail::read_int_attribute(root, "boundary_count", who, path);
  const auto open = [&](const std::string& name, h5_handle& into) {
    if (!mesh_file_detail::path_exists(root, name)) return;
    into = h5_handle(checked(H5Dopen2(root, name.c_str(), H5P_DEFAULT), who, path,
                             ("H5Dopen2 of " + name).c_str()),
                     H5Dclose);
    detail::dataset_info info = mesh_file_detail::describe(into.get(), who, path, name);
    m.datasets.emplace(name, std::move(info));
  };
  open("/nodes/coordinates", f.coordinates);
  open("/nodes/tags", f.tags);
  for (const auto& [group, handles] :
       {std::pair{"/cells/", &f.cells}, {"/boundary/", &f.boundary}}) {
    h5_handle* arrays[] = {&handles->types, &handles->offsets, &handles->nodes, &handles->ids,
                           &handles->physical};
    for (std::size_t k = 0; k < std::size(arrays); ++k) {
      open(group + std::string(detail::element_arrays[k]), *arrays[k]);
    }
  }
  open("/physical_groups/dimension", f.group_dimension);
  open("/physical_groups/id", f.group_id);
  open("/physical_groups/name", f.group_name);
  return m;
}

// Collective reads that go on after a failure, so that every rank makes every collective
// call; throw_first() then reports the first failure.
class collective_reads {
 public:
  explicit collective_reads(const fs::path& path) : path_(path) {
    transfer_ = h5_handle(checked(H5Pcreate(H5P_DATASET_XFER), who, path, "H5Pcreate"), H5Pclose);
    checked(H5Pset_dxpl_mpio(transfer_.get(), H5FD_MPIO_COLLECTIVE), who, path, "H5Pset_dxpl_mpio");
  }
  // Rows [first, first + count) of `dataset` (all `columns`; 0: one-dimensional) into `into`.
  void rows(hid_t dataset, const char* name, hid_t memory_type, hsize_t first, hsize_t count,
            hsize_t columns, void* into) {
    const int rank = columns == 0 ? 1 : 2;
    const h5_handle file_space(H5Dget_space(dataset), H5Sclose);
    const hsize_t start[2] = {first, 0};
    const hsize_t extent[2] = {count, columns};
    const hsize_t one[2] = {1, std::max<hsize_t>(columns, 1)};
    const h5_handle memory_space(H5Screate_simple(rank, count == 0 ? one : extent, nullptr),
                                 H5Sclose);
    herr_t status = file_space.valid() && memory_space.valid() ? 0 : -1;
    if (status >= 0 && count == 0) {
      status = std::min(H5Sselect_none(file_space.get()), H5Sselect_none(memory_space.get()));
    } else if (status >= 0) {
      status =
          H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, extent, nullptr);
    }
    // Called on every rank whatever happened above: the read is collective.
    char none = 0;
    const herr_t read = H5Dread(dataset, memory_type, memory_space.get(), file_space.get(),
                                transfer_.get(), count == 0 ? &none : into);
    if ((status < 0 || read < 0) && failure_.empty()) {
      failure_ = std::string(who) + ": " + path_.string() + ": dataset '" + name +
                 "' cannot be read: corrupt (its checksum does not match) or truncated";
    }
  }
  void throw_first() const {
    if (!failure_.empty()) throw error(failure_);
  }

 private:
  const fs::path& path_;
  h5_handle transfer_;
  std::string failure_;
};

// This rank's rows of one element group ("cells" or "boundary"), as read.
struct element_rows {
  std::string group;
  index_t first = 0, count = 0;
  std::vector<std::int32_t> types;
  std::vector<std::int64_t> offsets;  // the file's, rows first .. first + count
  std::vector<std::int64_t> ids;
  std::vector<int> physical;
  std::vector<index_t> nodes;  // entries offsets.front() .. offsets.back()

  element_rows(std::string name, index_t total, int parts, int part)
      : group(std::move(name)),
        first(share_begin(total, parts, part)),
        count(share_begin(total, parts, part + 1) - first) {}
  std::string path(const char* leaf) const { return "/" + group + "/" + leaf; }
  void allocate_rows() {
    const auto n = static_cast<std::size_t>(count);
    types.resize(n);
    offsets.resize(n + 1);
    ids.resize(n);
    physical.resize(n);
  }
  void read_rows(collective_reads& reads, const element_handles& h) {
    const auto at = static_cast<hsize_t>(first), n = static_cast<hsize_t>(count);
    reads.rows(h.types.get(), path("types").c_str(), H5T_NATIVE_INT32, at, n, 0, types.data());
    reads.rows(h.offsets.get(), path("offsets").c_str(), H5T_NATIVE_INT64, at, n + 1, 0,
               offsets.data());
    reads.rows(h.ids.get(), path("ids").c_str(), H5T_NATIVE_INT64, at, n, 0, ids.data());
    reads.rows(h.physical.get(), path("physical").c_str(), H5T_NATIVE_INT, at, n, 0,
               physical.data());
  }
  // Once the offsets passed: the node entries the rows span.
  void allocate_nodes() {
    nodes.resize(static_cast<std::size_t>(offsets.back() - offsets.front()));
  }
  void read_nodes(collective_reads& reads, const element_handles& h) {
    reads.rows(h.nodes.get(), path("nodes").c_str(), H5T_NATIVE_INT64,
               static_cast<hsize_t>(offsets.front()), nodes.size(), 0, nodes.data());
  }
  // The rows as a block: Gmsh types made cell types (checked by check_element_rows),
  // offsets made local.
  element_block take_block() {
    element_block block;
    block.types.resize(types.size());
    for (std::size_t k = 0; k < types.size(); ++k) from_gmsh_type(types[k], block.types[k]);
    block.offsets.resize(offsets.size());
    for (std::size_t k = 0; k < offsets.size(); ++k)
      block.offsets[k] = offsets[k] - offsets.front();
    block.nodes = std::move(nodes);
    block.ids = std::move(ids);
    block.physical = std::move(physical);
    return block;
  }
};

std::vector<std::string> read_names(hid_t dataset, index_t groups, const fs::path& path) {
  const h5_handle type(checked(H5Dget_type(dataset), who, path, "H5Dget_type"), H5Tclose);
  std::vector<std::string> names(static_cast<std::size_t>(groups));
  if (groups == 0) return names;
  // Every rank reads the whole (small) array independently: variable-length strings are
  // not read collectively.
  if (H5Tis_variable_str(type.get()) > 0) {
    const h5_handle memory(checked(H5Tcopy(H5T_C_S1), who, path, "H5Tcopy"), H5Tclose);
    checked(H5Tset_size(memory.get(), H5T_VARIABLE), who, path, "H5Tset_size");
    std::vector<char*> text(names.size(), nullptr);
    checked(H5Dread(dataset, memory.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, text.data()), who, path,
            "H5Dread of /physical_groups/name");
    for (std::size_t k = 0; k < text.size(); ++k) {
      names[k] = text[k] != nullptr ? text[k] : "";
      H5free_memory(text[k]);
    }
    return names;
  }
  const std::size_t size = H5Tget_size(type.get());
  if (size == 0 || size > (std::size_t{1} << 16)) {
    throw error(std::string(who) + ": " + path.string() +
                ": dataset '/physical_groups/name' holds strings of " + std::to_string(size) +
                " bytes");
  }
  std::vector<char> bytes(size * names.size());
  checked(H5Dread(dataset, type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()), who, path,
          "H5Dread of /physical_groups/name");
  for (std::size_t k = 0; k < names.size(); ++k) {
    const char* at = bytes.data() + k * size;
    names[k].assign(at, std::find(at, at + size, '\0'));
  }
  return names;
}

}  // namespace

mesh_slab read_mesh_file(MPI_Comm comm_handle, const fs::path& path) {
  const mpi::communicator comm(comm_handle);
  const int parts = comm.size(), part = comm.rank();
  const std::string file = path.string();
  // One look from rank 0 (one file system): a missing file or another format said plainly.
  mpi::on_root_agreed(comm, [&] {
    std::error_code code;
    if (!fs::exists(path, code)) throw error(std::string(who) + ": " + file + " does not exist");
    if (!is_mesh_file(path)) {
      throw error(std::string(who) + ": " + file +
                  ": not an HDF5 file (no HDF5 signature; unreadable, or another format)");
    }
  });
  // Runs `phase` on every rank, then agrees on its outcome.
  const auto agreed = [&](auto&& phase) { mpi::agree(comm, attempt(phase)); };

  open_file f;
  detail::mesh_file_shape shape;
  agreed([&] {
    mesh_file_detail::silence_hdf5_errors();
    const h5_handle access(checked(H5Pcreate(H5P_FILE_ACCESS), who, path, "H5Pcreate"), H5Pclose);
    checked(H5Pset_fapl_mpio(access.get(), comm.get(), MPI_INFO_NULL), who, path,
            "H5Pset_fapl_mpio");
    const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, access.get());
    if (id < 0)
      throw error(std::string(who) + ": " + file + ": HDF5 cannot open it (truncated, or damaged)");
    f.file = h5_handle(id, H5Fclose);
    shape = detail::check_metadata(read_metadata(f, path), file);
  });

  mesh_slab slab;
  slab.dimension = shape.dimension;
  slab.global_nodes = shape.nodes;
  slab.global_cells = shape.cells;
  slab.global_boundary = shape.boundary;
  slab.first_node = share_begin(shape.nodes, parts, part);
  const index_t node_rows = share_begin(shape.nodes, parts, part + 1) - slab.first_node;
  element_rows cells("cells", shape.cells, parts, part);
  element_rows boundary("boundary", shape.boundary, parts, part);
  std::vector<int> group_dimension, group_id;
  std::vector<std::string> group_names;
  agreed([&] {  // allocations fail here, before any collective read
    slab.coordinates.resize(static_cast<std::size_t>(node_rows));
    if (shape.node_tags) slab.node_ids.resize(static_cast<std::size_t>(node_rows));
    cells.allocate_rows();
    boundary.allocate_rows();
    group_dimension.resize(static_cast<std::size_t>(shape.groups));
    group_id.resize(static_cast<std::size_t>(shape.groups));
  });

  // Every rank reads its rows, then checks them.
  agreed([&] {
    collective_reads reads(path);
    const auto first = static_cast<hsize_t>(slab.first_node);
    const auto rows = static_cast<hsize_t>(node_rows);
    reads.rows(f.coordinates.get(), "/nodes/coordinates", H5T_NATIVE_DOUBLE, first, rows, 3,
               slab.coordinates.data());
    if (shape.node_tags) {
      reads.rows(f.tags.get(), "/nodes/tags", H5T_NATIVE_INT64, first, rows, 0,
                 slab.node_ids.data());
    }
    cells.read_rows(reads, f.cells);
    boundary.read_rows(reads, f.boundary);
    const auto groups = static_cast<hsize_t>(shape.groups);
    reads.rows(f.group_dimension.get(), "/physical_groups/dimension", H5T_NATIVE_INT, 0, groups, 0,
               group_dimension.data());
    reads.rows(f.group_id.get(), "/physical_groups/id", H5T_NATIVE_INT, 0, groups, 0,
               group_id.data());
    reads.throw_first();
    group_names = read_names(f.group_name.get(), shape.groups, path);
    detail::check_element_rows("cells", cells.types, cells.offsets, cells.first, shape.cells,
                               shape.cell_entries, shape.dimension, file);
    detail::check_element_rows("boundary", boundary.types, boundary.offsets, boundary.first,
                               shape.boundary, shape.boundary_entries, shape.dimension - 1, file);
    detail::check_physical_groups(group_dimension, file);
  });

  // The node entries the rows span, then their range.
  agreed([&] {
    cells.allocate_nodes();
    boundary.allocate_nodes();
  });
  agreed([&] {
    collective_reads reads(path);
    cells.read_nodes(reads, f.cells);
    boundary.read_nodes(reads, f.boundary);
    reads.throw_first();
    detail::check_node_entries("cells", cells.nodes, cells.offsets.front(), shape.nodes, file);
    detail::check_node_entries("boundary", boundary.nodes, boundary.offsets.front(), shape.nodes,
                               file);
  });

  slab.first_cell = cells.first;
  slab.cells = cells.take_block();
  slab.first_boundary = boundary.first;
  slab.boundary = boundary.take_block();
  slab.physical_groups.resize(group_names.size());
  for (std::size_t k = 0; k < group_names.size(); ++k) {
    slab.physical_groups[k] = {group_dimension[k], group_id[k], std::move(group_names[k])};
  }
  // Later errors name the file the user gave; the file's own `source` attribute (the .msh
  // it was converted from) is checked but not kept.
  slab.source = file;
  slab.gmsh_tags = shape.gmsh_tags;
  return slab;
}

}  // namespace funcmesh
