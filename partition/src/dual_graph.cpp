// Dual graphs: face adjacency by sorting every cell face's node set (two cells meet where
// the sets are equal), node adjacency through the node -> cells map.
#include <funcmesh/partition/dual_graph.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <funcmesh/core/error.hpp>

namespace funcmesh {

namespace {

// A cell face without its smallest node (that one is the bucket it sits in). Word is
// 32-bit when the mesh's node and cell numbers fit: half the memory traffic.
template <class Word>
struct face_rest {
  std::array<Word, 3> nodes;  // the other nodes, sorted; unused entries all ones
  Word cell;
};

// The face's nodes, sorted (insertion sort: at most four, and std::sort on such a small
// std::array trips GCC 12's -Warray-bounds).
std::array<index_t, 4> sorted_face(std::span<const index_t> cell_nodes,
                                   std::span<const std::uint8_t> local) {
  std::array<index_t, 4> key{-1, -1, -1, -1};
  for (std::size_t k = 0; k < local.size(); ++k) {
    const index_t node = cell_nodes[local[k]];
    std::size_t at = k;
    for (; at > 0 && key[at - 1] > node; --at) key[at] = key[at - 1];
    key[at] = node;
  }
  return key;
}

void check_nodes(const mesh& m) {
  const index_t nodes = m.node_count();
  for (std::size_t k = 0; k < m.cells.nodes.size(); ++k) {
    const index_t node = m.cells.nodes[k];
    if (node < 0 || node >= nodes) {
      const auto after =
          std::upper_bound(m.cells.offsets.begin(), m.cells.offsets.end(), static_cast<index_t>(k));
      const auto cell = static_cast<index_t>(after - m.cells.offsets.begin()) - 1;
      throw error("funcmesh::dual_graph: " + m.where() + m.cell_name(cell) +
                  " references node index " + std::to_string(node) + ", but the mesh has " +
                  std::to_string(nodes) + " nodes");
    }
  }
}

// The error for a face (smallest node `low`, the rest in `first`) that the cells
// [first, last) all have: the file, the face by its nodes and the cells by their tags.
template <class Rest>
error shared_by_more_than_two(const mesh& m, index_t low, const Rest* first, const Rest* last) {
  std::vector<index_t> face{low};
  for (const auto node : first->nodes) {
    if (node != static_cast<decltype(node)>(-1)) face.push_back(static_cast<index_t>(node));
  }
  std::vector<index_t> cells;
  for (const Rest* k = first; k != last; ++k) cells.push_back(static_cast<index_t>(k->cell));
  std::sort(cells.begin(), cells.end());  // the bucket's sort leaves them in any order
  return error("funcmesh::dual_graph: " + m.where() + "the face of " + m.node_list(face) +
               " is shared by " + m.cell_names(cells) +
               ": a mesh face joins at most two cells (the mesh is not a manifold)");
}

// CSR from undirected edges with every list sorted: counted, filled, then each (short)
// list sorted in place. The edges are taken, and freed once filled in, so that at most
// one copy of the pairs beside the graph is alive (the set-up's peak memory).
template <class Word>
graph from_edges(index_t cells, std::vector<std::array<Word, 2>> edges) {
  const auto count = static_cast<std::size_t>(cells);
  graph g;
  g.offsets.assign(count + 1, 0);
  for (const auto& e : edges) {
    ++g.offsets[static_cast<std::size_t>(e[0]) + 1];
    ++g.offsets[static_cast<std::size_t>(e[1]) + 1];
  }
  for (std::size_t v = 0; v < count; ++v) g.offsets[v + 1] += g.offsets[v];
  g.adjacency.resize(2 * edges.size());
  {
    std::vector<index_t> fill(g.offsets.begin(), g.offsets.end() - 1);
    for (const auto& e : edges) {
      g.adjacency[static_cast<std::size_t>(fill[static_cast<std::size_t>(e[0])]++)] =
          static_cast<index_t>(e[1]);
      g.adjacency[static_cast<std::size_t>(fill[static_cast<std::size_t>(e[1])]++)] =
          static_cast<index_t>(e[0]);
    }
  }
  std::vector<std::array<Word, 2>>().swap(edges);
  for (std::size_t v = 0; v < count; ++v) {
    std::sort(g.adjacency.begin() + g.offsets[v], g.adjacency.begin() + g.offsets[v + 1]);
  }
  return g;
}

// Faces are bucketed by their smallest node (a counting sort, linear), then matched
// within each small bucket: much faster than sorting every face of the mesh at once.
template <class Word>
graph face_dual(const mesh& m) {
  using rest = face_rest<Word>;
  const auto word = [](index_t v) { return static_cast<Word>(v); };
  const auto nodes = static_cast<std::size_t>(m.node_count());
  std::vector<index_t> start(nodes + 1, 0);
  for (index_t c = 0; c < m.cell_count(); ++c) {
    const cell_type type = m.cells.types[static_cast<std::size_t>(c)];
    const auto cell_nodes = m.cells.nodes_of(c);
    for (int f = 0; f < face_count(type); ++f) {
      ++start[static_cast<std::size_t>(sorted_face(cell_nodes, face_nodes(type, f))[0]) + 1];
    }
  }
  for (std::size_t n = 0; n < nodes; ++n) start[n + 1] += start[n];
  // Left uninitialised (every entry is written below): zeroing ~30 bytes per face first
  // costs as much as filling them.
  std::unique_ptr<rest[]> faces(new rest[static_cast<std::size_t>(start.back())]);
  std::vector<index_t> fill(start.begin(), start.end() - 1);
  for (index_t c = 0; c < m.cell_count(); ++c) {
    const cell_type type = m.cells.types[static_cast<std::size_t>(c)];
    const auto cell_nodes = m.cells.nodes_of(c);
    for (int f = 0; f < face_count(type); ++f) {
      const auto key = sorted_face(cell_nodes, face_nodes(type, f));
      faces[static_cast<std::size_t>(fill[static_cast<std::size_t>(key[0])]++)] = {
          {word(key[1]), word(key[2]), word(key[3])}, word(c)};
    }
  }
  // Each interior face is one edge: at most half the cell faces (reserved, so no growth
  // copies; pages never written are never resident).
  std::vector<std::array<Word, 2>> edges;
  edges.reserve(static_cast<std::size_t>(start.back()) / 2);
  for (std::size_t n = 0; n < nodes; ++n) {
    rest* const first = faces.get() + start[n];
    rest* const last = faces.get() + start[n + 1];
    std::sort(first, last, [](const rest& a, const rest& b) { return a.nodes < b.nodes; });
    for (auto k = first; k != last;) {
      auto end = k + 1;
      while (end != last && end->nodes == k->nodes) ++end;
      if (end - k > 2) throw shared_by_more_than_two(m, static_cast<index_t>(n), k, end);
      if (end - k == 2 && k->cell != (k + 1)->cell) edges.push_back({k->cell, (k + 1)->cell});
      k = end;
    }
  }
  // The faces and buckets go before the graph is built.
  std::vector<index_t>().swap(start);
  std::vector<index_t>().swap(fill);
  faces.reset();
  return from_edges(m.cell_count(), std::move(edges));
}

graph node_dual(const mesh& m) {
  // node -> cells, then each cell's neighbours are the other cells of its nodes.
  std::vector<index_t> offsets(static_cast<std::size_t>(m.node_count()) + 1, 0);
  for (index_t node : m.cells.nodes) ++offsets[static_cast<std::size_t>(node) + 1];
  for (std::size_t n = 0; n + 1 < offsets.size(); ++n) offsets[n + 1] += offsets[n];
  std::vector<index_t> cells_of(static_cast<std::size_t>(offsets.back()));
  std::vector<index_t> fill(offsets.begin(), offsets.end() - 1);
  for (index_t c = 0; c < m.cell_count(); ++c) {
    for (index_t node : m.cells.nodes_of(c)) {
      cells_of[static_cast<std::size_t>(fill[static_cast<std::size_t>(node)]++)] = c;
    }
  }
  graph g;
  std::vector<index_t> around;
  for (index_t c = 0; c < m.cell_count(); ++c) {
    around.clear();
    for (index_t node : m.cells.nodes_of(c)) {
      for (index_t k = offsets[static_cast<std::size_t>(node)];
           k < offsets[static_cast<std::size_t>(node) + 1]; ++k) {
        if (cells_of[static_cast<std::size_t>(k)] != c) {
          around.push_back(cells_of[static_cast<std::size_t>(k)]);
        }
      }
    }
    std::sort(around.begin(), around.end());
    around.erase(std::unique(around.begin(), around.end()), around.end());
    g.adjacency.insert(g.adjacency.end(), around.begin(), around.end());
    g.offsets.push_back(static_cast<index_t>(g.adjacency.size()));
  }
  return g;
}

}  // namespace

graph dual_graph(const mesh& m, adjacency by) {
  check_nodes(m);
  if (by == adjacency::node) return node_dual(m);
  // All ones marks unused key entries, so numbers must stay below it.
  constexpr auto narrow_limit = static_cast<index_t>(UINT32_MAX);
  if (m.node_count() < narrow_limit && m.cell_count() < narrow_limit) {
    return face_dual<std::uint32_t>(m);
  }
  return face_dual<std::uint64_t>(m);
}

}  // namespace funcmesh
