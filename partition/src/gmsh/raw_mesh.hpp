// What the MSH 2 and MSH 4 section parsers collect, before it becomes a funcmesh::mesh:
// sections may come in any order, so node references and physical groups are resolved
// only once the whole file is read (assemble), with file offsets kept for the errors.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/partition/cell_type.hpp>
#include <funcmesh/partition/mesh.hpp>

#include "cursor.hpp"

namespace funcmesh::gmsh {

struct raw_mesh {
  int version = 0;  // 2 (MSH 2.2) or 4 (MSH 4.1)

  bool has_nodes = false;
  std::vector<std::int64_t> node_tags;
  std::vector<std::array<double, 3>> coordinates;
  std::vector<std::size_t> node_offsets;  // where each node is in the file

  bool has_elements = false;
  std::size_t elements_offset = 0;
  std::vector<std::int64_t> element_tags;
  std::vector<cell_type> element_types;
  std::vector<int> element_groups;  // MSH 2: the physical tag; MSH 4: the entity tag
  std::vector<index_t> element_starts{0};
  std::vector<std::int64_t> element_nodes;  // node tags
  std::vector<std::size_t> element_offsets;

  bool has_entities = false;
  std::map<std::pair<int, int>, int> entity_physical;  // (dimension, entity) -> physical

  bool has_names = false;
  std::vector<physical_group> names;

  void add_element(std::int64_t tag, cell_type type, int group, std::size_t offset) {
    element_tags.push_back(tag);
    element_types.push_back(type);
    element_groups.push_back(group);
    element_offsets.push_back(offset);
  }
  void end_element() { element_starts.push_back(static_cast<index_t>(element_nodes.size())); }
};

// Section parsers; the cursor stands just after the section's header line and is left
// just after its $End line.
void read_msh2_nodes(cursor& in, raw_mesh& raw);
void read_msh2_elements(cursor& in, raw_mesh& raw);
void read_msh4_entities(cursor& in, raw_mesh& raw);
void read_msh4_nodes(cursor& in, raw_mesh& raw);
void read_msh4_elements(cursor& in, raw_mesh& raw);

// Checks tags and references and builds the mesh.
mesh assemble(raw_mesh&& raw, const cursor& in);

// An element type the readers accept, with the error for the others.
cell_type element_type(const cursor& in, int gmsh, std::size_t at);
// A node or element tag: positive.
std::int64_t positive_tag(const cursor& in, std::int64_t tag, std::string_view what,
                          std::size_t at);

}  // namespace funcmesh::gmsh
