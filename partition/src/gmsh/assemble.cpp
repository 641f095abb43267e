// Turns what the section parsers collected into a mesh: unique positive tags, node
// references resolved to 0-based indices, the top dimension chosen, physical groups.
#include <algorithm>
#include <set>
#include <string>

#include "raw_mesh.hpp"

namespace funcmesh::gmsh {

namespace {

struct tag_entry {
  std::int64_t tag;
  index_t index;
  bool operator<(const tag_entry& other) const {
    return tag != other.tag ? tag < other.tag : index < other.index;
  }
};

// Sorted (tag, index) pairs; a repeated tag is an error at its later occurrence.
std::vector<tag_entry> unique_tags(const cursor& in, const std::vector<std::int64_t>& tags,
                                   const std::vector<std::size_t>& offsets,
                                   std::string_view section, std::string_view what) {
  std::vector<tag_entry> sorted(tags.size());
  for (std::size_t i = 0; i < tags.size(); ++i) sorted[i] = {tags[i], static_cast<index_t>(i)};
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    if (sorted[i].tag == sorted[i - 1].tag) {
      in.fail_in(section, offsets[static_cast<std::size_t>(sorted[i].index)],
                 "duplicate " + std::string(what) + " tag " + std::to_string(sorted[i].tag));
    }
  }
  return sorted;
}

}  // namespace

cell_type element_type(const cursor& in, int gmsh, std::size_t at) {
  cell_type type{};
  if (!from_gmsh_type(gmsh, type)) {
    in.fail_at(at, "unknown element type " + std::to_string(gmsh) +
                       " (funcmesh reads first-order points, lines, triangles, quads, "
                       "tetrahedra, hexahedra, prisms and pyramids)");
  }
  return type;
}

std::int64_t positive_tag(const cursor& in, std::int64_t tag, std::string_view what,
                          std::size_t at) {
  if (tag <= 0)
    in.fail_at(at, std::string(what) + " tag " + std::to_string(tag) + " is not positive");
  return tag;
}

node_lookup::node_lookup(const cursor& in, const raw_mesh& raw) {
  for (const tag_entry& e : unique_tags(in, raw.node_tags, raw.node_offsets, "$Nodes", "node")) {
    sorted_.emplace_back(e.tag, e.index);
  }
  const std::size_t n = sorted_.size();
  if (n > 0 && static_cast<std::uint64_t>(sorted_.back().first) <= 4 * n + 64) {
    table_.assign(static_cast<std::size_t>(sorted_.back().first) + 1, -1);
    for (const auto& [tag, index] : sorted_) table_[static_cast<std::size_t>(tag)] = index;
  }
}

index_t node_lookup::find(std::int64_t tag) const {
  if (!table_.empty()) {
    return tag > 0 && static_cast<std::uint64_t>(tag) < table_.size()
               ? table_[static_cast<std::size_t>(tag)]
               : -1;
  }
  const auto it = std::lower_bound(sorted_.begin(), sorted_.end(), std::pair{tag, index_t{-1}});
  return it != sorted_.end() && it->first == tag ? it->second : -1;
}

int checked_dimension(const cursor& in, int dimension, std::size_t elements_offset) {
  if (dimension < 2) {
    in.fail_in("$Elements", elements_offset,
               "no cells of the top dimension (the highest element dimension is " +
                   std::to_string(dimension) + "; funcmesh needs 2-D or 3-D cells)");
  }
  return dimension;
}

bool resolve_element(const cursor& in, const raw_mesh& raw,
                     const std::map<std::pair<int, int>, int>& entity_physical,
                     const node_lookup& nodes, int dimension, std::size_t e,
                     std::vector<index_t>& element_nodes, int& physical) {
  element_nodes.clear();
  for (auto k = raw.element_starts[e]; k < raw.element_starts[e + 1]; ++k) {
    const std::int64_t tag = raw.element_nodes[static_cast<std::size_t>(k)];
    const index_t index = nodes.find(tag);
    if (index < 0) {
      in.fail_in("$Elements", raw.element_offsets[e],
                 "element " + std::to_string(raw.element_tags[e]) + " references undefined node " +
                     std::to_string(tag));
    }
    element_nodes.push_back(index);
  }
  const int element_dimension = dimension_of(raw.element_types[e]);
  if (element_dimension < dimension - 1) return false;
  physical = raw.element_groups[e];
  if (raw.version == 4) {
    const auto it = entity_physical.find({element_dimension, physical});
    physical = it == entity_physical.end() ? 0 : it->second;
  }
  return true;
}

mesh assemble(raw_mesh&& raw, const cursor& in) {
  const std::size_t end = in.offset();
  if (!raw.has_nodes) in.fail_in("$Nodes", end, "the file has no $Nodes section");
  if (!raw.has_elements) in.fail_in("$Elements", end, "the file has no $Elements section");

  int dimension = 0;
  for (const cell_type type : raw.element_types)
    dimension = std::max(dimension, dimension_of(type));
  checked_dimension(in, dimension, raw.elements_offset);

  const node_lookup nodes(in, raw);
  unique_tags(in, raw.element_tags, raw.element_offsets, "$Elements", "element");

  mesh m;
  m.dimension = dimension;
  m.coordinates = std::move(raw.coordinates);
  m.node_ids = std::move(raw.node_tags);

  std::set<std::pair<int, int>> used_groups;  // (dimension, physical id)
  std::vector<index_t> element_nodes;
  for (std::size_t e = 0; e < raw.element_types.size(); ++e) {
    int physical = 0;
    if (!resolve_element(in, raw, raw.entity_physical, nodes, dimension, e, element_nodes,
                         physical)) {
      continue;
    }
    const cell_type type = raw.element_types[e];
    const int element_dimension = dimension_of(type);
    if (physical != 0) used_groups.insert({element_dimension, physical});
    element_block& block = element_dimension == dimension ? m.cells : m.boundary;
    block.add(type, element_nodes, raw.element_tags[e], physical);
  }

  m.physical_groups = std::move(raw.names);
  add_unnamed_groups(m.physical_groups, used_groups);
  return m;
}

void add_unnamed_groups(std::vector<physical_group>& groups,
                        const std::set<std::pair<int, int>>& used) {
  for (const auto& group : used) {
    // Not a structured binding: clang before 16 (the fuzz build) cannot capture one.
    const int group_dimension = group.first, id = group.second;
    const bool named = std::any_of(groups.begin(), groups.end(), [&](const physical_group& g) {
      return g.dimension == group_dimension && g.id == id;
    });
    if (!named) groups.push_back({group_dimension, id, ""});
  }
}

}  // namespace funcmesh::gmsh
