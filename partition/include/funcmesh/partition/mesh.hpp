// mesh: an unstructured 2-D or 3-D mesh as read or generated, before any partitioning:
// node coordinates, cells of the top dimension (mixed types, CSR connectivity), boundary
// elements (one dimension lower) with their Gmsh physical groups, 64-bit global ids, and
// where it came from (a file or a generator), so that errors found later can name both.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/partition/cell_type.hpp>

namespace funcmesh {

// A Gmsh physical group: elements of one dimension tagged with an id and a name.
struct physical_group {
  int dimension = 0;
  int id = 0;
  std::string name;  // "" when the file gives none
};

// Elements of one dimension in CSR form: element e has nodes
// nodes[offsets[e] .. offsets[e + 1]) (indices into mesh::coordinates), in Gmsh order.
struct element_block {
  std::vector<cell_type> types;
  std::vector<index_t> offsets{0};
  std::vector<index_t> nodes;
  std::vector<std::int64_t> ids;  // global ids (Gmsh element tags, or 0-based when generated)
  std::vector<int> physical;      // physical group id per element (0: none)

  index_t size() const { return static_cast<index_t>(types.size()); }
  std::span<const index_t> nodes_of(index_t e) const {
    return {nodes.data() + offsets[static_cast<std::size_t>(e)],
            static_cast<std::size_t>(offsets[static_cast<std::size_t>(e) + 1] -
                                     offsets[static_cast<std::size_t>(e)])};
  }
  void add(cell_type type, std::span<const index_t> element_nodes, std::int64_t id,
           int physical_id);
  // Room for `elements` more elements with `element_nodes` nodes in all, so that a block
  // built by add() holds no growth slack (a third of a large mesh's connectivity).
  void reserve(std::size_t elements, std::size_t element_nodes);
};

struct mesh {
  int dimension = 0;  // 2 or 3: the dimension of the cells
  // Node coordinates; z = 0 in 2-D.
  std::vector<std::array<double, 3>> coordinates;
  // Global node ids (Gmsh node tags); empty where the nodes carry none (the Airfoil grid
  // and local meshes: a node is named by its index, or by local_mesh::global_node).
  std::vector<std::int64_t> node_ids;
  element_block cells;     // elements of the top dimension
  element_block boundary;  // elements of dimension - 1 (boundary tags)
  std::vector<physical_group> physical_groups;
  // Where the mesh came from, for error messages: the Gmsh file's path (read_gmsh) or what
  // generated it ("built-in box2d-tri 4x3"). Empty for meshes built in code and for local
  // meshes (their ids are the global mesh's; the file is named before distribution).
  std::string source;
  // True when cells.ids and node_ids are the tags of a Gmsh file: messages then name a
  // cell "element <tag>", as Gmsh and its GUI do, rather than "cell <id>".
  bool gmsh_tags = false;

  index_t node_count() const { return static_cast<index_t>(coordinates.size()); }
  index_t cell_count() const { return cells.size(); }
  // The id of the physical group with this name and dimension, or 0.
  int physical_id(std::string_view name, int group_dimension) const;
  // The name of a physical group id of this dimension ("" when unnamed or unknown).
  std::string physical_name(int id, int group_dimension) const;

  // How error messages name things, by the numbers a user can look up (tags, ids), never
  // by internal indices alone. "mesh.msh: " (source and a colon), or "" without a source.
  std::string where() const;
  // "element 1001" (a Gmsh file's cell tag) or "cell 17" (a generated or coded mesh's id);
  // "cell index 5" when the ids are missing.
  std::string cell_name(index_t c) const;
  // "elements 3, 8 and 12" (or "cells ..."): several cells, each named as by cell_name.
  std::string cell_names(std::span<const index_t> cells) const;
  // "element 1001 (triangle, nodes 5 9 12)": cell_name with its type and its nodes by tag
  // (node_ids), or "node indices 4 8 11" (0-based) when the mesh keeps no node tags.
  std::string describe_cell(index_t c) const;
  // "nodes 5 9 12" or "node indices 4 8 11", as describe_cell names a cell's nodes.
  std::string node_list(std::span<const index_t> nodes) const;
  // "node 12" or "node index 11": one node, as node_list names it.
  std::string node_name(index_t node) const;
};

}  // namespace funcmesh
