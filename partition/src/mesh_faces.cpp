// Faces by sorting every cell face's node set, as the dual graph does: equal sets are one
// face. Numbering follows the cells, so a cell's faces are mostly close in memory.
#include <funcmesh/partition/mesh_faces.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <funcmesh/core/error.hpp>

namespace funcmesh {

namespace {

// Index: the width of the sort keys, 32-bit where node and slot counts fit (half the
// set-up's peak memory: the keys are its largest temporary), else index_t.
template <class Index = index_t>
using key_nodes = std::array<Index, 4>;  // sorted, unused entries -1

template <class Index>
struct face_key {
  key_nodes<Index> nodes;
  Index slot;  // position in cell_faces: cell_offsets[cell] + local face
  Index cell;
};

// Insertion sort of at most four nodes (std::sort here trips GCC 12's -Warray-bounds).
template <class Nodes>
key_nodes<> sorted(const Nodes& nodes) {
  key_nodes<> key{-1, -1, -1, -1};
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const index_t node = nodes[k];
    std::size_t at = k;
    for (; at > 0 && key[at - 1] > node; --at) key[at] = key[at - 1];
    key[at] = node;
  }
  return key;
}

// "mesh.msh: element 17": the file and the cell's tag (or id), never a bare index.
std::string cell_name(const mesh& m, index_t c) { return m.where() + m.cell_name(c); }

void check_cells(const mesh& m) {
  if (m.dimension != 2 && m.dimension != 3) {
    throw error("funcmesh::build_faces: mesh dimension must be 2 or 3, got " +
                std::to_string(m.dimension));
  }
  const element_block& cells = m.cells;
  if (cells.offsets.size() != cells.types.size() + 1 || cells.ids.size() != cells.types.size() ||
      cells.offsets.back() != static_cast<index_t>(cells.nodes.size())) {
    throw error("funcmesh::build_faces: inconsistent cell arrays (types, offsets, nodes, ids)");
  }
  for (index_t c = 0; c < m.cell_count(); ++c) {
    const cell_type type = cells.types[static_cast<std::size_t>(c)];
    if (dimension_of(type) != m.dimension) {
      throw error("funcmesh::build_faces: " + cell_name(m, c) + " is a " +
                  std::string(name_of(type)) + " in a " + std::to_string(m.dimension) + "-D mesh");
    }
    const auto nodes = cells.nodes_of(c);
    if (static_cast<int>(nodes.size()) != node_count(type)) {
      throw error("funcmesh::build_faces: " + cell_name(m, c) + " (" + std::string(name_of(type)) +
                  ") has " + std::to_string(nodes.size()) + " nodes");
    }
    for (index_t node : nodes) {
      if (node < 0 || node >= m.node_count()) {
        throw error("funcmesh::build_faces: " + cell_name(m, c) + " references node index " +
                    std::to_string(node) + " of " + std::to_string(m.node_count()));
      }
    }
  }
}

// Sets each boundary face's physical id from the boundary element with the same nodes.
void tag_boundary(const mesh& m, mesh_faces& faces) {
  std::vector<face_key<index_t>> boundary;
  for (index_t f = 0; f < faces.size(); ++f) {
    if (faces.on_boundary(f)) boundary.push_back({sorted(faces.nodes_of(f)), f, -1});
  }
  std::sort(boundary.begin(), boundary.end(),
            [](const auto& a, const auto& b) { return a.nodes < b.nodes; });
  const element_block& elements = m.boundary;
  for (index_t e = 0; e < elements.size(); ++e) {
    const auto nodes = elements.nodes_of(e);
    if (nodes.size() > 4 ||
        dimension_of(elements.types[static_cast<std::size_t>(e)]) != m.dimension - 1) {
      continue;  // not a face of this mesh's cells (a point tag in 2-D, say)
    }
    for (index_t node : nodes) {
      if (node < 0 || node >= m.node_count()) {
        throw error("funcmesh::build_faces: " + m.where() + "boundary element " +
                    std::to_string(elements.ids[static_cast<std::size_t>(e)]) +
                    " references node index " + std::to_string(node) + " of " +
                    std::to_string(m.node_count()));
      }
    }
    const key_nodes<> key = sorted(nodes);
    const auto at =
        std::lower_bound(boundary.begin(), boundary.end(), key,
                         [](const auto& a, const key_nodes<>& k) { return a.nodes < k; });
    // Elements matching no boundary face tag interior surfaces; faces keep 0 then.
    if (at != boundary.end() && at->nodes == key) {
      faces.physical[static_cast<std::size_t>(at->slot)] =
          elements.physical[static_cast<std::size_t>(e)];
    }
  }
}

// partner[slot]: the other cell's slot of the same face, or -1 (faces by sorting every
// cell face's node set).
template <class Index>
std::vector<Index> face_partners(const mesh& m, const std::vector<index_t>& cell_offsets) {
  const auto slots = static_cast<std::size_t>(cell_offsets.back());
  std::vector<face_key<Index>> keys;
  keys.reserve(slots);
  for (index_t c = 0; c < m.cell_count(); ++c) {
    const cell_type type = m.cells.types[static_cast<std::size_t>(c)];
    const auto nodes = m.cells.nodes_of(c);
    for (int f = 0; f < face_count(type); ++f) {
      const auto local = face_nodes(type, f);
      key_nodes<Index> key{-1, -1, -1, -1};
      for (std::size_t k = 0; k < local.size(); ++k) {
        const auto node = static_cast<Index>(nodes[local[k]]);
        std::size_t at = k;
        for (; at > 0 && key[at - 1] > node; --at) key[at] = key[at - 1];
        key[at] = node;
      }
      keys.push_back({key, static_cast<Index>(cell_offsets[static_cast<std::size_t>(c)] + f),
                      static_cast<Index>(c)});
    }
  }
  std::sort(keys.begin(), keys.end(), [](const face_key<Index>& a, const face_key<Index>& b) {
    return a.nodes != b.nodes ? a.nodes < b.nodes : a.slot < b.slot;
  });

  std::vector<Index> partner(slots, -1);
  for (std::size_t k = 0; k < keys.size();) {
    std::size_t end = k + 1;
    while (end < keys.size() && keys[end].nodes == keys[k].nodes) ++end;
    if (end - k > 2) {
      // The face by its nodes as its first cell has them, and every cell that shares it.
      const index_t first = static_cast<index_t>(keys[k].cell);
      const auto cell_nodes = m.cells.nodes_of(first);
      std::vector<index_t> face, sharing;
      const int local = static_cast<int>(static_cast<index_t>(keys[k].slot) -
                                         cell_offsets[static_cast<std::size_t>(first)]);
      for (std::uint8_t n : face_nodes(m.cells.types[static_cast<std::size_t>(first)], local)) {
        face.push_back(cell_nodes[n]);
      }
      for (std::size_t s = k; s < end; ++s) sharing.push_back(static_cast<index_t>(keys[s].cell));
      throw error("funcmesh::build_faces: " + m.where() + "the face of " + m.node_list(face) +
                  " is shared by " + m.cell_names(sharing) +
                  ": a mesh face joins at most two cells (the mesh is not a manifold)");
    }
    if (end - k == 2) {
      if (keys[k].cell == keys[k + 1].cell) {
        throw error("funcmesh::build_faces: " + m.where() +
                    m.describe_cell(static_cast<index_t>(keys[k].cell)) +
                    " has two faces with the same nodes: a degenerate cell");
      }
      partner[static_cast<std::size_t>(keys[k].slot)] = keys[k + 1].slot;
      partner[static_cast<std::size_t>(keys[k + 1].slot)] = keys[k].slot;
    }
    k = end;
  }
  return partner;
}

// Numbers the faces in the order the cells first meet them.
template <class Index>
void number_faces(const mesh& m, const std::vector<Index>& partner, mesh_faces& faces) {
  const std::size_t slots = partner.size();
  // Face count: every slot without a partner plus every pair once.
  std::size_t face_total = 0;
  for (std::size_t s = 0; s < slots; ++s) {
    if (partner[s] < 0 || static_cast<Index>(s) < partner[s]) ++face_total;
  }
  faces.types.reserve(face_total);
  faces.offsets.reserve(face_total + 1);
  faces.nodes.reserve(face_total * (m.dimension == 2 ? 2 : 4));
  faces.cells.reserve(face_total);
  faces.cell_faces.assign(slots, -1);
  // The cell of a slot: the last cell whose first slot is at or before it.
  auto cell_of_slot = [&](index_t slot) {
    const auto after = std::upper_bound(faces.cell_offsets.begin(), faces.cell_offsets.end(), slot);
    return static_cast<index_t>(after - faces.cell_offsets.begin()) - 1;
  };
  for (index_t c = 0; c < m.cell_count(); ++c) {
    const cell_type type = m.cells.types[static_cast<std::size_t>(c)];
    const auto nodes = m.cells.nodes_of(c);
    const index_t first = faces.cell_offsets[static_cast<std::size_t>(c)];
    for (int f = 0; f < face_count(type); ++f) {
      const auto slot = static_cast<std::size_t>(first + f);
      if (faces.cell_faces[slot] >= 0) continue;  // met from its first cell already
      const index_t face = faces.size();
      const auto other = static_cast<index_t>(partner[slot]);
      faces.types.push_back(face_type(type, f));
      for (std::uint8_t local : face_nodes(type, f)) faces.nodes.push_back(nodes[local]);
      faces.offsets.push_back(static_cast<index_t>(faces.nodes.size()));
      faces.cells.push_back({c, other < 0 ? -1 : cell_of_slot(other)});
      faces.cell_faces[slot] = face;
      if (other >= 0) faces.cell_faces[static_cast<std::size_t>(other)] = face;
    }
  }
}

}  // namespace

mesh_faces build_faces(const mesh& m) {
  check_cells(m);
  mesh_faces faces;
  const auto cell_count = static_cast<std::size_t>(m.cell_count());
  faces.cell_offsets.reserve(cell_count + 1);
  for (std::size_t c = 0; c < cell_count; ++c) {
    faces.cell_offsets.push_back(faces.cell_offsets.back() + face_count(m.cells.types[c]));
  }
  constexpr index_t narrow = std::numeric_limits<std::int32_t>::max();
  if (m.node_count() < narrow && faces.cell_offsets.back() < narrow && m.cell_count() < narrow) {
    number_faces(m, face_partners<std::int32_t>(m, faces.cell_offsets), faces);
  } else {
    number_faces(m, face_partners<index_t>(m, faces.cell_offsets), faces);
  }
  faces.physical.assign(faces.types.size(), 0);
  tag_boundary(m, faces);
  return faces;
}

}  // namespace funcmesh
