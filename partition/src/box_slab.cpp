// One rank's share of a built-in box, generated without the rest of the box: the rows of
// the share computed from their indices, as the whole-mesh generators compute every row.
#include <string>

#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>

#include "box_rows.hpp"

namespace funcmesh {

mesh_slab box_slab(std::string_view name, index_t n, const box_options& options, int parts,
                   int part) {
  std::size_t what = 0;
  while (what < detail::box_kind_names.size() && name != detail::box_kind_names[what]) ++what;
  if (what == detail::box_kind_names.size()) {
    throw error("funcmesh::box_slab: unknown mesh '" + std::string(name) +
                "'; valid names: box2d-tri, box2d-quad, box3d-hex, box3d-tet");
  }
  if (n < 1) {
    throw error("funcmesh::box_slab: cells per direction must be positive, got " +
                std::to_string(n));
  }
  if (parts < 1) {
    throw error("funcmesh::box_slab: the number of parts must be positive, got " +
                std::to_string(parts));
  }
  if (part < 0 || part >= parts) {
    throw error("funcmesh::box_slab: part " + std::to_string(part) + " is outside [0, " +
                std::to_string(parts) + ")");
  }
  const detail::box_rows box(static_cast<detail::box_kind>(what), {n, n, n}, options);

  mesh_slab slab;
  slab.dimension = box.dimension();
  slab.global_nodes = box.node_count();
  slab.global_cells = box.cell_count();
  slab.global_boundary = box.boundary_count();
  slab.first_node = share_begin(slab.global_nodes, parts, part);
  box.add_nodes(slab.first_node, share_begin(slab.global_nodes, parts, part + 1), slab.coordinates,
                slab.node_ids);
  slab.first_cell = share_begin(slab.global_cells, parts, part);
  box.add_cells(slab.first_cell, share_begin(slab.global_cells, parts, part + 1), slab.cells);
  slab.first_boundary = share_begin(slab.global_boundary, parts, part);
  box.add_boundary(slab.first_boundary, share_begin(slab.global_boundary, parts, part + 1),
                   slab.boundary);
  slab.physical_groups = box.physical_groups();
  slab.source = box.source();
  slab.gmsh_tags = false;
  return slab;
}

}  // namespace funcmesh
