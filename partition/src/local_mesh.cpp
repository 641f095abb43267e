// Local meshes by breadth-first search over the dual graph: the halo is the owned set's
// depth-step neighbourhood, and a part's send list to q is found inside that same region
// (any path of length <= depth from an owned cell stays within depth of the owned set).
// Global-sized scratch maps are shared by all parts and reset only where touched.
#include <funcmesh/partition/local_mesh.hpp>

#include <algorithm>
#include <exception>
#include <numeric>
#include <string>

#include <funcmesh/core/error.hpp>
#include <funcmesh/exec/thread_policy.hpp>

#include "local_mesh/boundary_lookup.hpp"
#include "local_mesh/locality_order.hpp"

namespace funcmesh {

namespace {

using funcmesh::detail::at;

void validate(const mesh& global, const graph& dual, std::span<const int> part, int parts,
              const halo_options& options) {
  const std::string where = "funcmesh::build_local_mesh: ";
  if (parts < 1) throw error(where + "parts is " + std::to_string(parts) + ", must be >= 1");
  if (options.depth < 1) {
    throw error(where + "halo depth is " + std::to_string(options.depth) + ", must be >= 1");
  }
  if (static_cast<index_t>(part.size()) != global.cell_count()) {
    throw error(where + "the partition has " + std::to_string(part.size()) +
                " entries, but the mesh has " + std::to_string(global.cell_count()) + " cells");
  }
  if (dual.vertex_count() != global.cell_count()) {
    throw error(where + "the dual graph has " + std::to_string(dual.vertex_count()) +
                " vertices, but the mesh has " + std::to_string(global.cell_count()) + " cells");
  }
  for (std::size_t c = 0; c < part.size(); ++c) {
    if (part[c] < 0 || part[c] >= parts) {
      throw error(where + "cell " + std::to_string(c) + " is assigned to part " +
                  std::to_string(part[c]) + ", outside [0, " + std::to_string(parts) + ")");
    }
  }
  const index_t nodes = global.node_count();
  for (const element_block* block : {&global.cells, &global.boundary}) {
    for (index_t node : block->nodes) {
      if (node < 0 || node >= nodes) {
        throw error(where + "an element references node index " + std::to_string(node) +
                    ", but the mesh has " + std::to_string(nodes) + " nodes");
      }
    }
  }
}

void check_which(int parts, int which) {
  if (which < 0 || which >= parts) {
    throw error("funcmesh::build_local_mesh: part " + std::to_string(which) + " is outside [0, " +
                std::to_string(parts) + ")");
  }
}

// What every part's build shares: the inputs, the boundary lookup and the scratch maps.
struct builder {
  const mesh& global;
  const graph& dual;
  std::span<const int> part;
  int parts;
  halo_options options;
  // Shared, read only; null when every boundary element is a face of a local cell.
  const local_mesh_detail::boundary_lookup* boundary;
  std::vector<index_t> cell_map;  // global cell -> local cell, -1 elsewhere
  std::vector<index_t> node_map;  // global node -> local node, -1 elsewhere
  std::vector<int> distance;      // per local cell, for the send-list searches

  builder(const mesh& g, const graph& d, std::span<const int> p, int n, const halo_options& o,
          const local_mesh_detail::boundary_lookup* lookup)
      : global(g),
        dual(d),
        part(p),
        parts(n),
        options(o),
        boundary(lookup),
        cell_map(at(g.cell_count()), -1),
        node_map(at(g.node_count()), -1) {}

  local_mesh build(int which, std::span<const index_t> owned);

 private:
  void number_cells(local_mesh& lm, std::span<const index_t> owned);
  void find_neighbours(local_mesh& lm);
  std::vector<index_t> send_list(const local_mesh& lm, index_t first, index_t last);
  void copy_geometry(local_mesh& lm);
};

// Local numbering [interior | boundary | halo by owner]; leaves cell_map set for the region.
void builder::number_cells(local_mesh& lm, std::span<const index_t> owned) {
  // Breadth-first search from the owned cells; cell_map holds the step count meanwhile.
  std::vector<index_t> halo;
  for (index_t c : owned) cell_map[at(c)] = 0;
  std::size_t level_begin = 0;
  for (int level = 1; level <= options.depth; ++level) {
    const std::size_t level_end = halo.size();
    auto expand = [&](index_t c) {
      for (index_t n : dual.neighbours(c)) {
        if (cell_map[at(n)] < 0) {
          cell_map[at(n)] = level;
          halo.push_back(n);
        }
      }
    };
    if (level == 1) {
      for (index_t c : owned) expand(c);
    } else {
      for (std::size_t k = level_begin; k < level_end; ++k) expand(halo[k]);
    }
    level_begin = level_end;
  }
  std::vector<index_t> interior, boundary_cells;
  for (index_t c : owned) {
    const auto around = dual.neighbours(c);
    const bool inner =
        std::all_of(around.begin(), around.end(), [&](index_t n) { return cell_map[at(n)] == 0; });
    (inner ? interior : boundary_cells).push_back(c);
  }
  // Owned cells in a locality order (halo cells stay by global index: the receive lists
  // match the neighbours' send lists in that order).
  if (options.order == cell_order::locality) {
    local_mesh_detail::order_for_locality(global, dual, interior, cell_map, 0);
    local_mesh_detail::order_for_locality(global, dual, boundary_cells, cell_map, 0);
  }
  std::sort(halo.begin(), halo.end(), [&](index_t a, index_t b) {
    return part[at(a)] != part[at(b)] ? part[at(a)] < part[at(b)] : a < b;
  });
  lm.interior_count = static_cast<index_t>(interior.size());
  lm.owned_count = static_cast<index_t>(owned.size());
  lm.global_cell.reserve(owned.size() + halo.size());
  for (const auto* group : {&interior, &boundary_cells, &halo}) {
    lm.global_cell.insert(lm.global_cell.end(), group->begin(), group->end());
  }
  for (std::size_t l = 0; l < lm.global_cell.size(); ++l) {
    cell_map[at(lm.global_cell[l])] = static_cast<index_t>(l);
  }
  lm.halo_owner_offsets.assign(at(parts) + 1, 0);
  for (index_t c : halo) ++lm.halo_owner_offsets[at(part[at(c)]) + 1];
  lm.halo_owner_offsets[0] = lm.owned_count;
  for (std::size_t q = 0; q < at(parts); ++q) {
    lm.halo_owner_offsets[q + 1] += lm.halo_owner_offsets[q];
  }
}

// Owned cells within depth steps of the halo cells [first, last) (one owner's group), by
// global index. Searches only the local region: see the file comment for why that suffices.
std::vector<index_t> builder::send_list(const local_mesh& lm, index_t first, index_t last) {
  std::vector<index_t> reached, send;
  for (index_t l = first; l < last; ++l) {
    distance[at(l)] = 0;
    reached.push_back(l);
  }
  for (std::size_t k = 0; k < reached.size(); ++k) {
    const index_t l = reached[k];
    const int d = distance[at(l)];
    if (l < lm.owned_count) send.push_back(l);
    if (d == options.depth) continue;
    for (index_t n : dual.neighbours(lm.global_cell[at(l)])) {
      const index_t ln = cell_map[at(n)];
      if (ln >= 0 && distance[at(ln)] < 0) {
        distance[at(ln)] = d + 1;
        reached.push_back(ln);
      }
    }
  }
  for (index_t l : reached) distance[at(l)] = -1;
  std::sort(send.begin(), send.end(),
            [&](index_t a, index_t b) { return lm.global_cell[at(a)] < lm.global_cell[at(b)]; });
  return send;
}

// Halo distance is symmetric, so the parts we receive from are exactly those we send to.
void builder::find_neighbours(local_mesh& lm) {
  distance.assign(lm.global_cell.size(), -1);
  for (int q = 0; q < parts; ++q) {
    const index_t first = lm.halo_owner_offsets[at(q)];
    const index_t last = lm.halo_owner_offsets[at(q) + 1];
    if (first == last) continue;
    neighbour_lists lists;
    lists.part = q;
    lists.send = send_list(lm, first, last);
    lists.receive.resize(at(last - first));
    for (index_t l = first; l < last; ++l) lists.receive[at(l - first)] = l;
    lm.neighbours.push_back(std::move(lists));
  }
}

void builder::copy_geometry(local_mesh& lm) {
  mesh& out = lm.cells;
  out.dimension = global.dimension;
  out.physical_groups = global.physical_groups;
  // Distinct nodes first (node_map marks the ones seen), then sort only those: a node
  // belongs to many cells, so this sorts a few times fewer entries.
  for (index_t c : lm.global_cell) {
    for (index_t node : global.cells.nodes_of(c)) {
      if (node_map[at(node)] == -1) {
        node_map[at(node)] = -2;
        lm.global_node.push_back(node);
      }
    }
  }
  std::sort(lm.global_node.begin(), lm.global_node.end());
  // No node tags (node_ids stays empty): global_node names each node in the global mesh,
  // which keeps the tags; a copy would cost 8 bytes a node for the whole run.
  out.coordinates.reserve(lm.global_node.size());
  for (std::size_t l = 0; l < lm.global_node.size(); ++l) {
    const index_t g = lm.global_node[l];
    node_map[at(g)] = static_cast<index_t>(l);
    out.coordinates.push_back(global.coordinates[at(g)]);
  }

  std::vector<index_t> mapped;
  auto copy = [&](const element_block& from, index_t e, element_block& to) {
    mapped.clear();
    for (index_t node : from.nodes_of(e)) mapped.push_back(node_map[at(node)]);
    const std::int64_t id = at(e) < from.ids.size() ? from.ids[at(e)] : e;
    const int physical = at(e) < from.physical.size() ? from.physical[at(e)] : 0;
    to.add(from.types[at(e)], mapped, id, physical);
  };
  std::size_t cell_nodes = 0;
  for (index_t c : lm.global_cell) cell_nodes += global.cells.nodes_of(c).size();
  out.cells.reserve(lm.global_cell.size(), cell_nodes);
  for (index_t c : lm.global_cell) copy(global.cells, c, out.cells);

  std::vector<index_t> elements;
  if (boundary == nullptr) {
    elements.resize(at(global.boundary.size()));
    std::iota(elements.begin(), elements.end(), index_t{0});
  } else {
    for (index_t c : lm.global_cell) {
      for (index_t k = boundary->offsets[at(c)]; k < boundary->offsets[at(c) + 1]; ++k) {
        elements.push_back(boundary->elements[at(k)]);
      }
    }
    std::sort(elements.begin(), elements.end());
    elements.erase(std::unique(elements.begin(), elements.end()), elements.end());
  }
  std::size_t boundary_nodes = 0;
  for (index_t e : elements) boundary_nodes += global.boundary.nodes_of(e).size();
  out.boundary.reserve(elements.size(), boundary_nodes);
  for (index_t e : elements) copy(global.boundary, e, out.boundary);

  for (index_t g : lm.global_node) node_map[at(g)] = -1;
}

local_mesh builder::build(int which, std::span<const index_t> owned) {
  local_mesh lm;
  lm.part = which;
  lm.parts = parts;
  number_cells(lm, owned);
  find_neighbours(lm);
  std::vector<int>().swap(distance);  // before the geometry's copy: the set-up's peak
  copy_geometry(lm);
  for (index_t c : lm.global_cell) cell_map[at(c)] = -1;
  return lm;
}

// Each part's owned cells in ascending global order (a counting sort by part).
std::vector<index_t> owned_by_part(std::span<const int> part, int parts,
                                   std::vector<index_t>& offsets) {
  offsets.assign(at(parts) + 1, 0);
  for (int p : part) ++offsets[at(p) + 1];
  for (std::size_t q = 0; q < at(parts); ++q) offsets[q + 1] += offsets[q];
  std::vector<index_t> cells(part.size());
  std::vector<index_t> fill(offsets.begin(), offsets.end() - 1);
  for (std::size_t c = 0; c < part.size(); ++c) {
    cells[at(fill[at(part[c])]++)] = static_cast<index_t>(c);
  }
  return cells;
}

// Part `which`'s local mesh (its owned cells in ascending global order), once validated.
local_mesh build_one(const mesh& global, const graph& dual, std::span<const int> part, int parts,
                     int which, const halo_options& options,
                     const local_mesh_detail::boundary_lookup* lookup) {
  std::vector<index_t> owned;
  for (std::size_t c = 0; c < part.size(); ++c) {
    if (part[c] == which) owned.push_back(static_cast<index_t>(c));
  }
  builder b(global, dual, part, parts, options, lookup);
  return b.build(which, owned);
}

}  // namespace

local_mesh build_local_mesh(const mesh& global, const graph& dual, std::span<const int> part,
                            int parts, int which, const halo_options& options) {
  validate(global, dual, part, parts, options);
  check_which(parts, which);
  const auto lookup = local_mesh_detail::attach_boundary(global);
  return build_one(global, dual, part, parts, which, options, &lookup);
}

namespace detail {
local_mesh build_local_mesh_of_region(const mesh& region, const graph& dual,
                                      std::span<const int> part, int parts, int which,
                                      const halo_options& options) {
  validate(region, dual, part, parts, options);
  check_which(parts, which);
  return build_one(region, dual, part, parts, which, options, nullptr);
}
}  // namespace detail

local_mesh build_local_mesh(const mesh& global, std::span<const int> part, int parts, int which,
                            const halo_options& options) {
  // Validate first: the dual graph of a mesh the partition does not fit is wasted work.
  check_which(parts, which);
  if (static_cast<index_t>(part.size()) != global.cell_count() || options.depth < 1) {
    validate(global, graph{}, part, parts, options);
  }
  return build_local_mesh(global, dual_graph(global, options.by), part, parts, which, options);
}

std::vector<local_mesh> build_local_meshes(const mesh& global, const graph& dual,
                                           std::span<const int> part, int parts,
                                           const halo_options& options) {
  validate(global, dual, part, parts, options);
  std::vector<index_t> offsets;
  const std::vector<index_t> owned = owned_by_part(part, parts, offsets);
  const auto lookup = local_mesh_detail::attach_boundary(global);
  std::vector<local_mesh> result(at(parts));
  // Parts are independent: each thread builds whole parts with scratch maps of its own, on
  // the thread policy's threads (an MPI rank's share of its node, not every CPU).
  std::exception_ptr failure;
  [[maybe_unused]] const int threads = std::max(1, std::min(exec::threads_target(), parts));
#pragma omp parallel num_threads(threads)
  {
    builder b(global, dual, part, parts, options, &lookup);
#pragma omp for schedule(dynamic)
    for (int p = 0; p < parts; ++p) {
      try {
        result[at(p)] =
            b.build(p, std::span<const index_t>(owned).subspan(
                           at(offsets[at(p)]), at(offsets[at(p) + 1] - offsets[at(p)])));
      } catch (...) {
#pragma omp critical(funcmesh_local_mesh_failure)
        if (!failure) failure = std::current_exception();
      }
    }
  }
  if (failure) std::rethrow_exception(failure);
  return result;
}

std::vector<local_mesh> build_local_meshes(const mesh& global, std::span<const int> part, int parts,
                                           const halo_options& options) {
  if (static_cast<index_t>(part.size()) != global.cell_count() || options.depth < 1 || parts < 1) {
    validate(global, graph{}, part, parts, options);
  }
  return build_local_meshes(global, dual_graph(global, options.by), part, parts, options);
}

}  // namespace funcmesh
