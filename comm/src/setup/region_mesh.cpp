// The region's mesh: cells by global id, nodes by global id, the boundary elements of its
// cells by row, the dual graph's edges between its cells; then global ids put back.
#include "region_mesh.hpp"

#include <algorithm>

#include "compact_ids.hpp"
#include "node_rows.hpp"

namespace funcmesh::setup_detail {

namespace {

using funcmesh::detail::at;

}  // namespace

local_mesh region_local_mesh(MPI_Comm comm, const mesh_slab& slab, region& cells, int parts,
                             int rank, const halo_options& halo) {
  // Owned and halo records merged by gid (both stores iterate in gid order).
  std::vector<cell_record> records;
  std::vector<index_t> gids;
  std::vector<int> part;
  {
    std::size_t a = 0, b = 0;
    while (a < cells.owned.count() || b < cells.halo.count()) {
      const bool take_owned =
          b == cells.halo.count() ||
          (a < cells.owned.count() && cells.owned[a].gid() < cells.halo[b].gid());
      records.push_back(take_owned ? cells.owned[a] : cells.halo[b]);
      part.push_back(take_owned ? rank : cells.halo_part[b].second);
      gids.push_back(records.back().gid());
      (take_owned ? a : b) += 1;
    }
  }
  compact_ids node_at;
  {
    std::vector<index_t> entries;
    std::size_t count = 0;
    for (const cell_record& r : records) count += r.nodes().size();
    entries.reserve(count);
    for (const cell_record& r : records)
      entries.insert(entries.end(), r.nodes().begin(), r.nodes().end());
    node_at = compact_ids(entries);
  }
  const std::vector<index_t>& nodes = node_at.ids();

  mesh sub;
  sub.dimension = slab.dimension;
  sub.physical_groups = slab.physical_groups;
  sub.coordinates = fetch_coordinates(comm, slab, nodes);
  std::vector<index_t> mapped;
  graph dual;
  {
    const compact_ids cell_at(gids);
    auto local_nodes = [&](std::span<const index_t> global) {
      mapped.clear();
      for (index_t g : global) mapped.push_back(node_at(g));
      return std::span<const index_t>(mapped);
    };
    std::size_t entries_count = 0, neighbour_count = 0;
    for (const cell_record& r : records) {
      entries_count += r.nodes().size();
      neighbour_count += static_cast<std::size_t>(r.neighbour_count());
    }
    sub.cells.reserve(records.size(), entries_count);
    dual.offsets.reserve(records.size() + 1);
    dual.adjacency.reserve(neighbour_count);
    struct element {
      index_t row, type, id, physical;
      std::span<const index_t> nodes;
    };
    std::vector<element> boundary;
    for (const cell_record& r : records) {
      sub.cells.add(static_cast<cell_type>(r.type()), local_nodes(r.nodes()), r.id(),
                    static_cast<int>(r.physical()));
      for (index_t k = 0; k < r.neighbour_count(); ++k) {
        const index_t n = cell_at(r.neighbour(k));
        if (n >= 0) dual.adjacency.push_back(n);  // ascending: gids are
      }
      dual.offsets.push_back(static_cast<index_t>(dual.adjacency.size()));
      r.for_each_boundary([&](index_t row, index_t type, index_t id, index_t physical,
                              std::span<const index_t> element_nodes) {
        boundary.push_back({row, type, id, physical, element_nodes});
      });
    }
    std::sort(boundary.begin(), boundary.end(),
              [](const element& x, const element& y) { return x.row < y.row; });
    boundary.erase(std::unique(boundary.begin(), boundary.end(),
                               [](const element& x, const element& y) { return x.row == y.row; }),
                   boundary.end());
    for (const element& e : boundary) {
      sub.boundary.add(static_cast<cell_type>(e.type), local_nodes(e.nodes), e.id,
                       static_cast<int>(e.physical));
    }
  }
  // The records are copied out: their memory goes before the local mesh is built.
  std::vector<cell_record>().swap(records);
  cells = region{};
  // The region is the local mesh's cells and their boundary elements exactly: the records
  // carried each cell's elements, so none needs matching to its cell again.
  local_mesh local = detail::build_local_mesh_of_region(sub, dual, part, parts, rank, halo);
  for (index_t& c : local.global_cell) c = gids[at(c)];
  for (index_t& n : local.global_node) n = nodes[at(n)];
  return local;
}

}  // namespace funcmesh::setup_detail
