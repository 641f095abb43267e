// The checks of a funcmesh mesh file (.h5) on plain values, without HDF5 or MPI:
// read_mesh_file gives them what it read from the file (metadata, then each rank's rows),
// the fuzzer (fuzz/mesh_file_schema_fuzz.cpp) what it decoded from bytes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <funcmesh/core/index.hpp>

namespace funcmesh::detail {

inline constexpr std::string_view mesh_file_format = "funcmesh mesh";
inline constexpr std::int64_t mesh_file_version = 1;
inline constexpr std::string_view mesh_file_reader_name = "funcmesh::read_mesh_file";

// What a dataset's type is, as far as the checks care.
enum class value_class { integer, real, string, other };

// A dataset as its metadata describes it.
struct dataset_info {
  value_class kind = value_class::other;
  std::vector<std::uint64_t> dims;  // its extent; rank = dims.size()
  std::uint64_t value_bytes = 0;    // bytes per value in the file
  // Bytes the file stores for it: an extent far beyond them (unwritten chunks read as
  // fill values) is a corrupt or hostile file, refused before anything is allocated.
  std::uint64_t stored_bytes = 0;
};

// The most a dataset's values may outnumber its stored bytes (compression), and a slack
// for small datasets.
inline constexpr std::uint64_t mesh_file_expansion = 1024;
inline constexpr std::uint64_t mesh_file_slack_bytes = std::uint64_t{1} << 20;

// An attribute as read: absent (nullopt) or its value. An attribute of the wrong kind
// (a string where a number belongs) is a read failure the HDF5 side reports itself.
struct mesh_file_metadata {
  std::optional<std::string> format;
  std::optional<std::int64_t> version;
  std::optional<std::int64_t> dimension;
  std::optional<std::string> source;
  std::optional<std::int64_t> gmsh_tags;
  std::optional<std::int64_t> node_count;
  std::optional<std::int64_t> cell_count;
  std::optional<std::int64_t> boundary_count;
  // Every dataset the file holds that the format names, by path ("/cells/offsets").
  std::map<std::string, dataset_info, std::less<>> datasets;
};

// The datasets of an element group ("cells" or "boundary"), in the order they are checked.
inline constexpr std::string_view element_arrays[] = {"types", "offsets", "nodes", "ids",
                                                      "physical"};

// A file whose metadata passed: its sizes.
struct mesh_file_shape {
  int dimension = 0;
  index_t nodes = 0;
  bool node_tags = false;  // /nodes/tags is present
  index_t cells = 0;
  index_t cell_entries = 0;  // length of /cells/nodes
  index_t boundary = 0;
  index_t boundary_entries = 0;
  index_t groups = 0;  // physical groups
  std::string source;
  bool gmsh_tags = false;
};

// Throws funcmesh::error("funcmesh::read_mesh_file: <file>: <what is wrong>") unless the
// attributes name this format and version, and every dataset is there with its kind and
// shape: coordinates N x 3 reals, tags N, each group's offsets E+1, the other per-element
// arrays E, physical group arrays of one length G; counts as the attributes say.
mesh_file_shape check_metadata(const mesh_file_metadata& metadata, std::string_view file);

// One rank's rows [first_row, first_row + types.size()) of group `group` ("cells" or
// "boundary"; its elements have dimension `element_dimension`): `types` are Gmsh type
// numbers, `offsets` the file's offsets of rows first_row .. first_row + types.size()
// (one more than types). Throws unless the offsets stay in [0, entries] and never
// decrease, the first row's offset is 0, the last row's end is `entries`, and every type
// is a funcmesh type of that dimension spanning its node count. Checked on every rank's
// rows, this is the whole array's check: neighbouring ranks share one offset.
void check_element_rows(std::string_view group, std::span<const std::int32_t> types,
                        std::span<const std::int64_t> offsets, index_t first_row,
                        index_t rows_total, index_t entries, int element_dimension,
                        std::string_view file);

// Node entries [first_entry, first_entry + nodes.size()) of group `group`: each in
// [0, node_count).
void check_node_entries(std::string_view group, std::span<const std::int64_t> nodes,
                        index_t first_entry, index_t node_count, std::string_view file);

// Physical groups: dimensions in [0, 3].
void check_physical_groups(std::span<const std::int32_t> dimensions, std::string_view file);

}  // namespace funcmesh::detail
