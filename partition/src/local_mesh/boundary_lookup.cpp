// Boundary elements to cells through the node -> cells map: an element can only be a face
// of a cell around its first node, so each element tests a handful of candidate faces.
#include "boundary_lookup.hpp"

#include <array>

namespace funcmesh::local_mesh_detail {

namespace {

using funcmesh::detail::at;

using key = std::array<index_t, 4>;

// Insertion sort of at most four nodes (std::sort here trips GCC 12's -Warray-bounds).
void insert_sorted(key& k, std::size_t count, index_t node) {
  std::size_t pos = count;
  for (; pos > 0 && k[pos - 1] > node; --pos) k[pos] = k[pos - 1];
  k[pos] = node;
}

}  // namespace

boundary_lookup attach_boundary(const mesh& m) {
  const std::size_t nodes = at(m.node_count());
  std::vector<index_t> node_offsets(nodes + 1, 0);
  for (index_t node : m.cells.nodes) ++node_offsets[at(node) + 1];
  for (std::size_t n = 0; n < nodes; ++n) node_offsets[n + 1] += node_offsets[n];
  std::vector<index_t> cells_of(at(node_offsets.back()));
  std::vector<index_t> fill(node_offsets.begin(), node_offsets.end() - 1);
  for (index_t c = 0; c < m.cell_count(); ++c) {
    for (index_t node : m.cells.nodes_of(c)) cells_of[at(fill[at(node)]++)] = c;
  }

  std::vector<std::array<index_t, 2>> pairs;  // (cell, element)
  for (index_t e = 0; e < m.boundary.size(); ++e) {
    const auto element = m.boundary.nodes_of(e);
    if (element.empty() || element.size() > 4) continue;
    key want{-1, -1, -1, -1};
    for (std::size_t k = 0; k < element.size(); ++k) insert_sorted(want, k, element[k]);
    const index_t first = element[0];
    for (index_t k = node_offsets[at(first)]; k < node_offsets[at(first) + 1]; ++k) {
      const index_t c = cells_of[at(k)];
      const cell_type type = m.cells.types[at(c)];
      const auto cell_nodes = m.cells.nodes_of(c);
      for (int f = 0; f < face_count(type); ++f) {
        const auto local = face_nodes(type, f);
        if (local.size() != element.size()) continue;
        key have{-1, -1, -1, -1};
        for (std::size_t j = 0; j < local.size(); ++j) insert_sorted(have, j, cell_nodes[local[j]]);
        if (have == want) {
          pairs.push_back({c, e});
          break;
        }
      }
    }
  }

  // Counting sort by cell; elements stay ascending within a cell because e ascends.
  boundary_lookup out;
  out.offsets.assign(at(m.cell_count()) + 1, 0);
  for (const auto& p : pairs) ++out.offsets[at(p[0]) + 1];
  for (std::size_t c = 0; c + 1 < out.offsets.size(); ++c) out.offsets[c + 1] += out.offsets[c];
  out.elements.resize(pairs.size());
  std::vector<index_t> next(out.offsets.begin(), out.offsets.end() - 1);
  for (const auto& p : pairs) out.elements[at(next[at(p[0])]++)] = p[1];
  return out;
}

}  // namespace funcmesh::local_mesh_detail
