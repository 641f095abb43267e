#include <funcmesh/partition/mesh.hpp>

#include <funcmesh/core/error.hpp>

namespace funcmesh {

void element_block::add(cell_type type, std::span<const index_t> element_nodes, std::int64_t id,
                        int physical_id) {
  types.push_back(type);
  nodes.insert(nodes.end(), element_nodes.begin(), element_nodes.end());
  offsets.push_back(static_cast<index_t>(nodes.size()));
  ids.push_back(id);
  physical.push_back(physical_id);
}

void element_block::reserve(std::size_t elements, std::size_t element_nodes) {
  types.reserve(types.size() + elements);
  offsets.reserve(offsets.size() + elements);
  nodes.reserve(nodes.size() + element_nodes);
  ids.reserve(ids.size() + elements);
  physical.reserve(physical.size() + elements);
}

int mesh::physical_id(std::string_view name, int group_dimension) const {
  for (const physical_group& group : physical_groups) {
    if (group.dimension == group_dimension && group.name == name) return group.id;
  }
  return 0;
}

std::string mesh::physical_name(int id, int group_dimension) const {
  for (const physical_group& group : physical_groups) {
    if (group.dimension == group_dimension && group.id == id) return group.name;
  }
  return {};
}

std::string mesh::where() const { return source.empty() ? std::string() : source + ": "; }

namespace {

// A cell's tag or id, or "index 5" when the mesh has none for it.
std::string cell_number(const mesh& m, index_t c) {
  const auto at = static_cast<std::size_t>(c);
  if (c < 0 || at >= m.cells.ids.size()) return "index " + std::to_string(c);
  return std::to_string(m.cells.ids[at]);
}

}  // namespace

std::string mesh::cell_name(index_t c) const {
  return (gmsh_tags ? "element " : "cell ") + cell_number(*this, c);
}

std::string mesh::cell_names(std::span<const index_t> list) const {
  std::string text = gmsh_tags ? "elements " : "cells ";
  for (std::size_t k = 0; k < list.size(); ++k) {
    if (k > 0) text += k + 1 == list.size() ? " and " : ", ";
    text += cell_number(*this, list[k]);
  }
  return text;
}

std::string mesh::node_list(std::span<const index_t> nodes) const {
  // Tags only when every node has one: a half-tagged list would mix two numberings.
  bool tagged = !node_ids.empty();
  for (index_t node : nodes) {
    tagged = tagged && node >= 0 && static_cast<std::size_t>(node) < node_ids.size();
  }
  std::string text = tagged ? "nodes" : "node indices";
  for (index_t node : nodes) {
    text += ' ';
    text += std::to_string(tagged ? node_ids[static_cast<std::size_t>(node)] : node);
  }
  return text;
}

std::string mesh::node_name(index_t node) const {
  const auto at = static_cast<std::size_t>(node);
  if (node >= 0 && at < node_ids.size()) return "node " + std::to_string(node_ids[at]);
  return "node index " + std::to_string(node);
}

std::string mesh::describe_cell(index_t c) const {
  std::string text = cell_name(c);
  const auto at = static_cast<std::size_t>(c);
  if (c < 0 || at >= cells.types.size() || at + 1 >= cells.offsets.size()) return text;
  text += " (" + std::string(name_of(cells.types[at]));
  const index_t begin = cells.offsets[at], end = cells.offsets[at + 1];
  if (begin >= 0 && begin <= end && static_cast<std::size_t>(end) <= cells.nodes.size()) {
    text += ", " + node_list(cells.nodes_of(c));
  }
  return text + ")";
}

}  // namespace funcmesh
