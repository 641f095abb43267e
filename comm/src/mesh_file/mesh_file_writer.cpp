// mesh_file_writer and write_mesh_file: a serial HDF5 file (the default sec2 driver, so no
// MPI is needed), nodes written at once, element blocks appended to extendible chunked
// datasets (Fletcher32 checksums), renamed into place by finish().
#include <algorithm>
#include <string>
#include <system_error>
#include <vector>

#include <funcmesh/comm/mesh_file.hpp>
#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/cell_type.hpp>
#include <funcmesh/partition/xdmf.hpp>

#include "mesh_file_hdf5.hpp"

namespace funcmesh {

namespace {

using mesh_file_detail::checked;
using mesh_file_detail::h5_handle;
namespace fs = std::filesystem;

constexpr std::string_view writer_name = "funcmesh::mesh_file_writer";
// Elements converted and written per H5Dwrite: bounds the converted copies' memory.
constexpr std::size_t piece_rows = std::size_t{1} << 20;
// Chunk sizes (elements): large enough for fast sequential reads, small enough that a
// rank's share of a small mesh does not read much more than it needs.
constexpr hsize_t chunk_rows = hsize_t{1} << 16;
constexpr hsize_t chunk_entries = hsize_t{1} << 18;

// A chunked, checksummed dataset of `rows` x `columns` (columns 0: one-dimensional),
// extendible when `extendible`.
h5_handle create_dataset(hid_t parent, const char* name, hid_t type, hsize_t rows, hsize_t columns,
                         hsize_t chunk, bool extendible, const fs::path& file) {
  const int rank = columns == 0 ? 1 : 2;
  const hsize_t dims[2] = {rows, columns};
  const hsize_t max_dims[2] = {extendible ? H5S_UNLIMITED : rows, columns};
  const h5_handle space(
      checked(H5Screate_simple(rank, dims, max_dims), writer_name, file, "H5Screate_simple"),
      H5Sclose);
  const h5_handle properties(checked(H5Pcreate(H5P_DATASET_CREATE), writer_name, file, "H5Pcreate"),
                             H5Pclose);
  const hsize_t chunk_dims[2] = {std::max<hsize_t>(1, chunk), columns};
  checked(H5Pset_chunk(properties.get(), rank, chunk_dims), writer_name, file, "H5Pset_chunk");
  checked(H5Pset_fletcher32(properties.get()), writer_name, file, "H5Pset_fletcher32");
  return {checked(H5Dcreate2(parent, name, type, space.get(), H5P_DEFAULT, properties.get(),
                             H5P_DEFAULT),
                  writer_name, file, "H5Dcreate2"),
          H5Dclose};
}

// Writes `rows` rows of `data` (memory type `memory`) at row `first` of `dataset`, growing
// it first when `grow`.
void write_rows(hid_t dataset, hid_t memory, const void* data, hsize_t first, hsize_t rows,
                hsize_t columns, bool grow, const fs::path& file) {
  if (rows == 0) return;
  const int rank = columns == 0 ? 1 : 2;
  const hsize_t end[2] = {first + rows, columns};
  if (grow) checked(H5Dset_extent(dataset, end), writer_name, file, "H5Dset_extent");
  const h5_handle space(checked(H5Dget_space(dataset), writer_name, file, "H5Dget_space"),
                        H5Sclose);
  const hsize_t start[2] = {first, 0};
  const hsize_t count[2] = {rows, columns};
  checked(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr),
          writer_name, file, "H5Sselect_hyperslab");
  const h5_handle memory_space(
      checked(H5Screate_simple(rank, count, nullptr), writer_name, file, "H5Screate_simple"),
      H5Sclose);
  checked(H5Dwrite(dataset, memory, memory_space.get(), space.get(), H5P_DEFAULT, data),
          writer_name, file, "H5Dwrite");
}

h5_handle create_group(hid_t parent, const char* name, const fs::path& file) {
  return {checked(H5Gcreate2(parent, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), writer_name,
                  file, "H5Gcreate2"),
          H5Gclose};
}

}  // namespace

// Named, not anonymous: mesh_file_writer::state (external linkage) holds two of them.
namespace mesh_file_detail {

// One element group's datasets (/cells or /boundary) and how much they hold.
struct element_datasets {
  h5_handle group, types, offsets, nodes, ids, physical;
  h5_handle xdmf;  // the cells only: xdmf_topology, the cells as an XDMF Mixed stream
  index_t rows = 0;
  index_t entries = 0;
  index_t xdmf_entries = 0;

  // Chunks sized by the first block: a whole small mesh in one chunk per array.
  void create(hid_t root, const char* name, hsize_t rows_hint, hsize_t entries_hint,
              const fs::path& file) {
    group = create_group(root, name, file);
    const hsize_t row_chunk = std::min(rows_hint, chunk_rows);
    types = create_dataset(group.get(), "types", H5T_STD_I8LE, 0, 0, row_chunk, true, file);
    offsets =
        create_dataset(group.get(), "offsets", H5T_STD_I64LE, 1, 0, row_chunk + 1, true, file);
    const std::int64_t zero = 0;
    write_rows(offsets.get(), H5T_NATIVE_INT64, &zero, 0, 1, 0, false, file);
    nodes = create_dataset(group.get(), "nodes", H5T_STD_I64LE, 0, 0,
                           std::min(entries_hint, chunk_entries), true, file);
    ids = create_dataset(group.get(), "ids", H5T_STD_I64LE, 0, 0, row_chunk, true, file);
    physical = create_dataset(group.get(), "physical", H5T_STD_I32LE, 0, 0, row_chunk, true, file);
    if (std::string_view(name) == "cells") {
      xdmf = create_dataset(group.get(), "xdmf_topology", H5T_STD_I64LE, 0, 0,
                            std::min(entries_hint + rows_hint, chunk_entries), true, file);
    }
  }
  void close() {
    for (h5_handle* h : {&types, &offsets, &nodes, &ids, &physical, &xdmf, &group}) h->reset();
  }
};

}  // namespace mesh_file_detail

struct mesh_file_writer::state {
  fs::path path;
  fs::path partial;
  int dimension = 0;
  index_t nodes = 0;
  std::string source;
  bool gmsh_tags = false;
  h5_handle file;
  mesh_file_detail::element_datasets cells, boundary;
  index_t dropped = 0;
  bool finished = false;
  bool failed = false;  // a write failed part way: the file is not finished, ever

  // Here rather than in ~mesh_file_writer: a constructor that throws runs this too.
  ~state() {
    if (finished) return;
    cells.close();
    boundary.close();
    file.reset();
    std::error_code ignored;
    fs::remove(partial, ignored);
  }
  [[noreturn]] void refuse(const std::string& what) const {
    throw error(std::string(writer_name) + ": " + path.string() + ": " + what);
  }
  void check_block(const element_block& block, int element_dimension) const;
  void append(mesh_file_detail::element_datasets& to, const element_block& block);
};

void mesh_file_writer::state::check_block(const element_block& block, int element_dimension) const {
  const std::size_t size = block.types.size();
  if (block.offsets.size() != size + 1 || block.offsets.front() != 0 ||
      block.offsets.back() != static_cast<index_t>(block.nodes.size()) ||
      (!block.ids.empty() && block.ids.size() != size) ||
      (!block.physical.empty() && block.physical.size() != size)) {
    refuse("an element block whose arrays disagree in length");
  }
  for (index_t e = 0; e < block.size(); ++e) {
    const auto at = static_cast<std::size_t>(e);
    // From 0 to the node count and never decreasing, so every nodes_of(e) is in bounds.
    if (block.offsets[at + 1] < block.offsets[at]) refuse("an element block's offsets decrease");
    const cell_type type = block.types[at];
    const auto nodes_of = block.nodes_of(e);
    if (dimension_of(type) != element_dimension ||
        static_cast<int>(nodes_of.size()) != node_count(type)) {
      refuse("element " + std::to_string(e) + " of a " + std::to_string(element_dimension) +
             "-D block is a " + std::string(name_of(type)) + " with " +
             std::to_string(nodes_of.size()) + " nodes");
    }
    for (const index_t n : nodes_of) {
      if (n < 0 || n >= nodes) {
        refuse("element " + std::to_string(e) + " names node index " + std::to_string(n) +
               ", outside [0, " + std::to_string(nodes) + ")");
      }
    }
  }
}

void mesh_file_writer::state::append(mesh_file_detail::element_datasets& to,
                                     const element_block& block) {
  if (!to.group.valid()) {
    to.create(file.get(), &to == &cells ? "cells" : "boundary", block.types.size(),
              block.nodes.size(), path);
  }
  std::vector<std::int8_t> types;
  std::vector<std::int64_t> offsets, ids, stream;
  for (std::size_t first = 0; first < block.types.size(); first += piece_rows) {
    const std::size_t last = std::min(block.types.size(), first + piece_rows);
    const auto rows = static_cast<hsize_t>(last - first);
    types.clear();
    offsets.clear();
    ids.clear();
    for (std::size_t e = first; e < last; ++e) {
      types.push_back(static_cast<std::int8_t>(gmsh_type(block.types[e])));
      offsets.push_back(to.entries + block.offsets[e + 1]);
      ids.push_back(block.ids.empty() ? to.rows + static_cast<index_t>(e) : block.ids[e]);
    }
    const auto row = static_cast<hsize_t>(to.rows) + first;
    write_rows(to.types.get(), H5T_NATIVE_INT8, types.data(), row, rows, 0, true, path);
    write_rows(to.offsets.get(), H5T_NATIVE_INT64, offsets.data(), row + 1, rows, 0, true, path);
    write_rows(to.ids.get(), H5T_NATIVE_INT64, ids.data(), row, rows, 0, true, path);
    if (block.physical.empty()) {
      const std::vector<int> none(rows, 0);
      write_rows(to.physical.get(), H5T_NATIVE_INT, none.data(), row, rows, 0, true, path);
    } else {
      write_rows(to.physical.get(), H5T_NATIVE_INT, block.physical.data() + first, row, rows, 0,
                 true, path);
    }
    const index_t begin = block.offsets[first], end = block.offsets[last];
    static_assert(sizeof(index_t) == sizeof(std::int64_t));
    write_rows(to.nodes.get(), H5T_NATIVE_INT64, block.nodes.data() + begin,
               static_cast<hsize_t>(to.entries + begin), static_cast<hsize_t>(end - begin), 0, true,
               path);
    if (to.xdmf.valid()) {
      stream.clear();
      for (std::size_t e = first; e < last; ++e) {
        append_xdmf_cell(stream, block.types[e], block.nodes_of(static_cast<index_t>(e)));
      }
      write_rows(to.xdmf.get(), H5T_NATIVE_INT64, stream.data(),
                 static_cast<hsize_t>(to.xdmf_entries), stream.size(), 0, true, path);
      to.xdmf_entries += static_cast<index_t>(stream.size());
    }
  }
  to.rows += block.size();
  to.entries += static_cast<index_t>(block.nodes.size());
}

mesh_file_writer::mesh_file_writer(const fs::path& path, int dimension,
                                   std::span<const std::array<double, 3>> coordinates,
                                   std::span<const std::int64_t> node_ids,
                                   std::span<const physical_group> physical_groups,
                                   std::string_view source, bool gmsh_tags)
    : state_(std::make_unique<state>()) {
  state& s = *state_;
  s.path = path;
  s.partial = path.string() + ".partial";
  s.dimension = dimension;
  s.nodes = static_cast<index_t>(coordinates.size());
  s.source = source;
  s.gmsh_tags = gmsh_tags;
  if (dimension != 2 && dimension != 3) {
    s.refuse("dimension " + std::to_string(dimension) + ", not 2 or 3");
  }
  if (!node_ids.empty() && node_ids.size() != coordinates.size()) {
    s.refuse(std::to_string(node_ids.size()) + " node ids for " +
             std::to_string(coordinates.size()) + " nodes");
  }
  mesh_file_detail::silence_hdf5_errors();
  s.file = h5_handle(checked(H5Fcreate(s.partial.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
                             writer_name, s.partial, "H5Fcreate"),
                     H5Fclose);
  const auto n = static_cast<hsize_t>(coordinates.size());
  {
    const h5_handle nodes = create_group(s.file.get(), "nodes", s.partial);
    static_assert(sizeof(std::array<double, 3>) == 3 * sizeof(double));
    const h5_handle xyz = create_dataset(nodes.get(), "coordinates", H5T_IEEE_F64LE, n, 3,
                                         std::min(n, chunk_rows), false, s.partial);
    write_rows(xyz.get(), H5T_NATIVE_DOUBLE, coordinates.data(), 0, n, 3, false, s.partial);
    if (!node_ids.empty()) {
      const h5_handle tags = create_dataset(nodes.get(), "tags", H5T_STD_I64LE, n, 0,
                                            std::min(n, chunk_entries), false, s.partial);
      write_rows(tags.get(), H5T_NATIVE_INT64, node_ids.data(), 0, n, 0, false, s.partial);
    }
  }
  const h5_handle groups = create_group(s.file.get(), "physical_groups", s.partial);
  const auto g = static_cast<hsize_t>(physical_groups.size());
  std::vector<int> dimensions, ids;
  std::size_t longest = 1;
  for (const physical_group& p : physical_groups) {
    dimensions.push_back(p.dimension);
    ids.push_back(p.id);
    longest = std::max(longest, p.name.size());
  }
  std::string names(longest * physical_groups.size(), '\0');
  for (std::size_t k = 0; k < physical_groups.size(); ++k) {
    std::ranges::copy(physical_groups[k].name,
                      names.begin() + static_cast<std::ptrdiff_t>(k * longest));
  }
  const h5_handle name_type = mesh_file_detail::string_type(longest, writer_name, s.partial);
  const struct {
    const char* name;
    hid_t file_type, memory_type;
    const void* data;
  } arrays[] = {{"dimension", H5T_STD_I32LE, H5T_NATIVE_INT, dimensions.data()},
                {"id", H5T_STD_I32LE, H5T_NATIVE_INT, ids.data()},
                {"name", name_type.get(), name_type.get(), names.data()}};
  for (const auto& a : arrays) {
    const h5_handle dataset = create_dataset(groups.get(), a.name, a.file_type, g, 0,
                                             std::max<hsize_t>(1, g), false, s.partial);
    write_rows(dataset.get(), a.memory_type, a.data, 0, g, 0, false, s.partial);
  }
}

mesh_file_writer::~mesh_file_writer() = default;

void mesh_file_writer::add_elements(const element_block& block, int element_dimension) {
  state& s = *state_;
  if (s.finished) s.refuse("add_elements after finish()");
  if (element_dimension != s.dimension && element_dimension != s.dimension - 1) {
    s.dropped += block.size();
    return;
  }
  if (s.failed) s.refuse("add_elements after a failed write");
  s.check_block(block, element_dimension);
  try {
    s.append(element_dimension == s.dimension ? s.cells : s.boundary, block);
  } catch (...) {
    s.failed = true;
    throw;
  }
}

void mesh_file_writer::finish() {
  state& s = *state_;
  if (s.finished) s.refuse("finish() called twice");
  if (s.failed) s.refuse("finish() after a failed write: the file is incomplete");
  for (mesh_file_detail::element_datasets* group : {&s.cells, &s.boundary}) {
    if (!group->group.valid()) {
      group->create(s.file.get(), group == &s.cells ? "cells" : "boundary", 1, 1, s.partial);
    }
    group->close();
  }
  const index_t xdmf_entries = s.cells.xdmf_entries;
  const hid_t root = s.file.get();
  mesh_file_detail::write_string_attribute(root, "format", detail::mesh_file_format, writer_name,
                                           s.partial);
  mesh_file_detail::write_int_attribute(root, "version", H5T_STD_I32LE, detail::mesh_file_version,
                                        writer_name, s.partial);
  mesh_file_detail::write_int_attribute(root, "dimension", H5T_STD_I32LE, s.dimension, writer_name,
                                        s.partial);
  mesh_file_detail::write_string_attribute(root, "source", s.source, writer_name, s.partial);
  mesh_file_detail::write_int_attribute(root, "gmsh_tags", H5T_STD_I32LE, s.gmsh_tags ? 1 : 0,
                                        writer_name, s.partial);
  mesh_file_detail::write_int_attribute(root, "node_count", H5T_STD_I64LE, s.nodes, writer_name,
                                        s.partial);
  mesh_file_detail::write_int_attribute(root, "cell_count", H5T_STD_I64LE, s.cells.rows,
                                        writer_name, s.partial);
  mesh_file_detail::write_int_attribute(root, "boundary_count", H5T_STD_I64LE, s.boundary.rows,
                                        writer_name, s.partial);
  // H5Fclose flushes: its failure (a full disk) must not leave a file renamed into place.
  if (H5Fclose(s.file.release()) < 0) {
    s.failed = true;
    s.refuse("closing " + s.partial.string() + " failed (disk full?)");
  }
  std::error_code code;
  fs::rename(s.partial, s.path, code);
  if (code) s.refuse("cannot rename " + s.partial.string() + " into place: " + code.message());
  s.finished = true;
  // Beside it, for ParaView and VisIt: FILE.xdmf describing the cells, their ids and
  // physical groups on the nodes.
  const std::string h5 = s.path.filename().string();
  xdmf_grid grid;
  grid.name = s.path.stem().string();
  grid.cells = s.cells.rows;
  grid.topology = {h5 + ":/cells/xdmf_topology", {xdmf_entries}, true};
  grid.points = {h5 + ":/nodes/coordinates", {s.nodes, 3}, false};
  grid.attributes.push_back({"id", {h5 + ":/cells/ids", {s.cells.rows}, true}});
  grid.attributes.push_back({"physical", {h5 + ":/cells/physical", {s.cells.rows}, true, 4}});
  // FILE.xdmf beside FILE.h5; a mesh file named *.xdmf gets FILE.xdmf.xdmf rather than
  // its own description written over it.
  fs::path description = s.path;
  if (description.extension() == ".xdmf") {
    description += ".xdmf";
  } else {
    description.replace_extension(".xdmf");
  }
  try {
    write_xdmf(description, grid, std::string(writer_name));
  } catch (const std::exception& e) {
    s.refuse(std::string("the mesh file is complete, but its XDMF description is not: ") +
             e.what());
  }
}

index_t mesh_file_writer::cells_written() const { return state_->cells.rows; }
index_t mesh_file_writer::boundary_written() const { return state_->boundary.rows; }
index_t mesh_file_writer::elements_dropped() const { return state_->dropped; }

void write_mesh_file(const fs::path& path, const mesh& m) {
  mesh_file_writer writer(path, m.dimension, m.coordinates, m.node_ids, m.physical_groups, m.source,
                          m.gmsh_tags);
  writer.add_elements(m.cells, m.dimension);
  writer.add_elements(m.boundary, m.dimension - 1);
  writer.finish();
}

}  // namespace funcmesh
