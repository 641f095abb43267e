// The mesh file's checks on plain values (no HDF5, no MPI), so that the fuzzer compiles
// them alone.
#include "mesh_file_schema.hpp"

#include <algorithm>

#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/cell_type.hpp>

namespace funcmesh::detail {

namespace {

__extension__ typedef unsigned __int128 wide;  // GCC and Clang

[[noreturn]] void refuse(std::string_view file, const std::string& what) {
  throw error(std::string(mesh_file_reader_name) + ": " + std::string(file) + ": " + what);
}

// "/<group>/<leaf>", built by appending: GCC 12 warns falsely (-Wrestrict) on
// "literal" + std::string(...).
std::string in_group(std::string_view group, std::string_view leaf = {}) {
  std::string path = "/";
  path += group;
  path += '/';
  path += leaf;
  return path;
}

std::string dataset_named(std::string_view dataset) {
  return "dataset '" + std::string(dataset) + "'";
}

std::string shape_text(const std::vector<std::uint64_t>& dims) {
  if (dims.empty()) return "a scalar";
  std::string text;
  for (const std::uint64_t d : dims) text += (text.empty() ? "" : " x ") + std::to_string(d);
  return text;
}

const char* kind_name(value_class kind) {
  switch (kind) {
    case value_class::integer:
      return "integers";
    case value_class::real:
      return "floating-point numbers";
    case value_class::string:
      return "strings";
    case value_class::other:
      break;
  }
  return "another type";
}

// The dataset at `path`, of kind `kind` and rank `rank`; its first extent.
index_t require(const mesh_file_metadata& metadata, std::string_view path, value_class kind,
                std::size_t rank, std::string_view file) {
  const auto it = metadata.datasets.find(path);
  if (it == metadata.datasets.end()) refuse(file, "no " + dataset_named(path));
  const dataset_info& d = it->second;
  if (d.kind != kind) {
    refuse(file, dataset_named(path) + " holds " + kind_name(d.kind) + ", not " + kind_name(kind));
  }
  if (d.dims.size() != rank) {
    refuse(file, dataset_named(path) + " has rank " + std::to_string(d.dims.size()) + " (" +
                     shape_text(d.dims) + "), not " + std::to_string(rank));
  }
  // Extents past 2^62 are corrupt metadata, never a mesh: refused before any sum overflows.
  constexpr std::uint64_t most = std::uint64_t{1} << 62;
  // Logical bytes, saturating at 2^126 (no overflow whatever the extents and value size).
  constexpr wide saturated = wide{1} << 126;
  wide bytes = std::max<std::uint64_t>(1, d.value_bytes);
  for (const std::uint64_t extent : d.dims) {
    if (extent > most) {
      refuse(file, dataset_named(path) + " has an implausible extent " + shape_text(d.dims));
    }
    bytes = extent != 0 && bytes > saturated / extent ? saturated : bytes * extent;
  }
  if (bytes > wide{d.stored_bytes} * mesh_file_expansion + mesh_file_slack_bytes) {
    refuse(file, dataset_named(path) + " is " + shape_text(d.dims) + " but the file stores only " +
                     std::to_string(d.stored_bytes) + " bytes of it (truncated or corrupt)");
  }
  return static_cast<index_t>(d.dims[0]);
}

void require_rows(const mesh_file_metadata& metadata, std::string_view path, value_class kind,
                  index_t rows, const std::string& why, std::string_view file) {
  const index_t found = require(metadata, path, kind, 1, file);
  if (found != rows) {
    refuse(file, dataset_named(path) + " has " + std::to_string(found) + " rows, not " +
                     std::to_string(rows) + " (" + why + ")");
  }
}

template <class T>
T attribute(const std::optional<T>& value, const char* name, std::string_view file) {
  if (!value) refuse(file, std::string("no attribute '") + name + "' (not a funcmesh mesh file)");
  return *value;
}

index_t count_attribute(const std::optional<std::int64_t>& value, const char* name,
                        std::string_view file) {
  const std::int64_t count = attribute(value, name, file);
  if (count < 0) refuse(file, std::string("attribute '") + name + "' is negative");
  return count;
}

}  // namespace

mesh_file_shape check_metadata(const mesh_file_metadata& metadata, std::string_view file) {
  const std::string format = attribute(metadata.format, "format", file);
  if (format != mesh_file_format) {
    refuse(file,
           "attribute 'format' is '" + format + "', not '" + std::string(mesh_file_format) + "'");
  }
  const std::int64_t version = attribute(metadata.version, "version", file);
  if (version != mesh_file_version) {
    refuse(file, "format version " + std::to_string(version) +
                     ", but this funcmesh reads version " + std::to_string(mesh_file_version) +
                     " only");
  }
  mesh_file_shape shape;
  const std::int64_t dimension = attribute(metadata.dimension, "dimension", file);
  if (dimension != 2 && dimension != 3) {
    refuse(file, "attribute 'dimension' is " + std::to_string(dimension) + ", not 2 or 3");
  }
  shape.dimension = static_cast<int>(dimension);
  shape.source = attribute(metadata.source, "source", file);
  const std::int64_t gmsh_tags = attribute(metadata.gmsh_tags, "gmsh_tags", file);
  if (gmsh_tags != 0 && gmsh_tags != 1) {
    refuse(file, "attribute 'gmsh_tags' is " + std::to_string(gmsh_tags) + ", not 0 or 1");
  }
  shape.gmsh_tags = gmsh_tags == 1;

  shape.nodes = require(metadata, "/nodes/coordinates", value_class::real, 2, file);
  const auto& coordinates = metadata.datasets.find(std::string_view("/nodes/coordinates"))->second;
  if (coordinates.dims[1] != 3) {
    refuse(file, dataset_named("/nodes/coordinates") + " is " + shape_text(coordinates.dims) +
                     ", not N x 3");
  }
  shape.node_tags = metadata.datasets.contains(std::string_view("/nodes/tags"));
  if (shape.node_tags) {
    require_rows(metadata, "/nodes/tags", value_class::integer, shape.nodes, "one per node", file);
  }
  const index_t nodes = count_attribute(metadata.node_count, "node_count", file);
  if (nodes != shape.nodes) {
    refuse(file, "attribute 'node_count' is " + std::to_string(nodes) + " but " +
                     dataset_named("/nodes/coordinates") + " has " + std::to_string(shape.nodes) +
                     " rows (an unfinished or altered file)");
  }

  for (const std::string_view group : {std::string_view("cells"), std::string_view("boundary")}) {
    const std::string at = in_group(group);
    const index_t elements = require(metadata, at + "types", value_class::integer, 1, file);
    require_rows(metadata, at + "offsets", value_class::integer, elements + 1,
                 "one more than " + at + "types", file);
    const index_t entries = require(metadata, at + "nodes", value_class::integer, 1, file);
    require_rows(metadata, at + "ids", value_class::integer, elements, "one per element", file);
    require_rows(metadata, at + "physical", value_class::integer, elements, "one per element",
                 file);
    const bool cells = group == "cells";
    const char* name = cells ? "cell_count" : "boundary_count";
    const index_t counted =
        count_attribute(cells ? metadata.cell_count : metadata.boundary_count, name, file);
    if (counted != elements) {
      refuse(file, std::string("attribute '") + name + "' is " + std::to_string(counted) + " but " +
                       dataset_named(at + "types") + " has " + std::to_string(elements) +
                       " rows (an unfinished or altered file)");
    }
    (cells ? shape.cells : shape.boundary) = elements;
    (cells ? shape.cell_entries : shape.boundary_entries) = entries;
  }

  shape.groups = require(metadata, "/physical_groups/dimension", value_class::integer, 1, file);
  require_rows(metadata, "/physical_groups/id", value_class::integer, shape.groups,
               "as many as /physical_groups/dimension", file);
  require_rows(metadata, "/physical_groups/name", value_class::string, shape.groups,
               "as many as /physical_groups/dimension", file);
  return shape;
}

void check_element_rows(std::string_view group, std::span<const std::int32_t> types,
                        std::span<const std::int64_t> offsets, index_t first_row,
                        index_t rows_total, index_t entries, int element_dimension,
                        std::string_view file) {
  const std::string at = in_group(group);
  if (offsets.size() != types.size() + 1) {
    throw error(std::string(mesh_file_reader_name) + ": " + std::string(file) + ": " +
                std::to_string(offsets.size()) + " offsets for " + std::to_string(types.size()) +
                " rows of " + at + "types (a bug in the reader)");
  }
  const auto offset_at = [&](std::size_t k) {
    return "offset " + std::to_string(first_row + static_cast<index_t>(k));
  };
  if (first_row == 0 && offsets[0] != 0) {
    refuse(file,
           dataset_named(at + "offsets") + " starts at " + std::to_string(offsets[0]) + ", not 0");
  }
  for (std::size_t k = 0; k < offsets.size(); ++k) {
    if (offsets[k] < 0 || offsets[k] > entries) {
      refuse(file, dataset_named(at + "offsets") + ": " + offset_at(k) + " is " +
                       std::to_string(offsets[k]) + ", outside [0, " + std::to_string(entries) +
                       "] (the length of " + at + "nodes)");
    }
    if (k > 0 && offsets[k] < offsets[k - 1]) {
      refuse(file, dataset_named(at + "offsets") + " decreases: " + offset_at(k) + " is " +
                       std::to_string(offsets[k]) + " after " + std::to_string(offsets[k - 1]));
    }
  }
  if (first_row + static_cast<index_t>(types.size()) == rows_total && offsets.back() != entries) {
    refuse(file, dataset_named(at + "offsets") + " ends at " + std::to_string(offsets.back()) +
                     " but " + at + "nodes has " + std::to_string(entries) + " entries");
  }
  for (std::size_t k = 0; k < types.size(); ++k) {
    // Named only on a failure: a string per row would cost more than the checks.
    const auto row = [&] { return "row " + std::to_string(first_row + static_cast<index_t>(k)); };
    cell_type type{};
    if (!from_gmsh_type(types[k], type)) {
      refuse(file, dataset_named(at + "types") + ": " + row() + " has Gmsh element type " +
                       std::to_string(types[k]) + ", which funcmesh does not read");
    }
    if (dimension_of(type) != element_dimension) {
      refuse(file, dataset_named(at + "types") + ": " + row() + " is a " +
                       std::string(name_of(type)) + " (" + std::to_string(dimension_of(type)) +
                       "-D) among " + std::to_string(element_dimension) + "-D " +
                       std::string(group));
    }
    const std::int64_t count = offsets[k + 1] - offsets[k];
    if (count != node_count(type)) {
      refuse(file, dataset_named(at + "offsets") + ": " + row() + " (a " +
                       std::string(name_of(type)) + ") has " + std::to_string(count) +
                       " nodes, not " + std::to_string(node_count(type)));
    }
  }
}

void check_node_entries(std::string_view group, std::span<const std::int64_t> nodes,
                        index_t first_entry, index_t node_count, std::string_view file) {
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    if (nodes[k] < 0 || nodes[k] >= node_count) {
      refuse(file, dataset_named(in_group(group, "nodes")) + ": entry " +
                       std::to_string(first_entry + static_cast<index_t>(k)) + " is node " +
                       std::to_string(nodes[k]) + ", outside [0, " + std::to_string(node_count) +
                       ") (the rows of /nodes/coordinates)");
    }
  }
}

void check_physical_groups(std::span<const std::int32_t> dimensions, std::string_view file) {
  for (std::size_t k = 0; k < dimensions.size(); ++k) {
    if (dimensions[k] < 0 || dimensions[k] > 3) {
      refuse(file, dataset_named("/physical_groups/dimension") + ": row " + std::to_string(k) +
                       " is " + std::to_string(dimensions[k]) + ", not in [0, 3]");
    }
  }
}

}  // namespace funcmesh::detail
