// Even shares of rows, and a whole mesh cut into them.
#include <funcmesh/partition/mesh_slab.hpp>

#include <string>

#include <funcmesh/core/error.hpp>

namespace funcmesh {

index_t share_begin(index_t total, int parts, int part) {
  if (parts < 1 || part < 0 || part > parts || total < 0) {
    throw error("funcmesh::share_begin: part " + std::to_string(part) + " of " +
                std::to_string(parts) + " (of " + std::to_string(total) + " rows)");
  }
  // total * part / parts without its overflow: (q parts + r) * part / parts, r < parts.
  const index_t q = total / parts, r = total % parts;
  return q * part + r * part / parts;
}

int share_of(index_t total, int parts, index_t row) {
  // A guess from doubles, corrected by at most a step or two either way.
  int part = static_cast<int>(static_cast<double>(row) /
                              static_cast<double>(total > 0 ? total : 1) * parts);
  part = part < 0 ? 0 : (part >= parts ? parts - 1 : part);
  while (part > 0 && share_begin(total, parts, part) > row) --part;
  while (part + 1 < parts && share_begin(total, parts, part + 1) <= row) ++part;
  return part;
}

namespace {

void copy_rows(const element_block& from, index_t first, index_t last, element_block& to) {
  std::size_t entries = 0;
  for (index_t e = first; e < last; ++e) entries += from.nodes_of(e).size();
  to.reserve(static_cast<std::size_t>(last - first), entries);
  for (index_t e = first; e < last; ++e) {
    const auto at = static_cast<std::size_t>(e);
    to.add(from.types[at], from.nodes_of(e), at < from.ids.size() ? from.ids[at] : e,
           at < from.physical.size() ? from.physical[at] : 0);
  }
}

}  // namespace

mesh_slab slab_of(const mesh& global, int parts, int part) {
  if (part < 0 || part >= parts) {
    throw error("funcmesh::slab_of: part " + std::to_string(part) + " is outside [0, " +
                std::to_string(parts) + ")");
  }
  mesh_slab slab;
  slab.dimension = global.dimension;
  slab.global_nodes = global.node_count();
  slab.global_cells = global.cell_count();
  slab.global_boundary = global.boundary.size();
  slab.first_node = share_begin(slab.global_nodes, parts, part);
  const index_t last_node = share_begin(slab.global_nodes, parts, part + 1);
  slab.coordinates.assign(global.coordinates.begin() + slab.first_node,
                          global.coordinates.begin() + last_node);
  if (!global.node_ids.empty()) {
    slab.node_ids.assign(global.node_ids.begin() + slab.first_node,
                         global.node_ids.begin() + last_node);
  }
  slab.first_cell = share_begin(slab.global_cells, parts, part);
  copy_rows(global.cells, slab.first_cell, share_begin(slab.global_cells, parts, part + 1),
            slab.cells);
  slab.first_boundary = share_begin(slab.global_boundary, parts, part);
  copy_rows(global.boundary, slab.first_boundary,
            share_begin(slab.global_boundary, parts, part + 1), slab.boundary);
  slab.physical_groups = global.physical_groups;
  slab.source = global.source;
  slab.gmsh_tags = global.gmsh_tags;
  return slab;
}

}  // namespace funcmesh
