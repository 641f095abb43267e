// Private to the parallel set-up: a face (or boundary element) named by its sorted global
// node ids, the hash that places it on a rank or in a bucket, and the slab's cell faces.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/partition/cell_type.hpp>
#include <funcmesh/partition/mesh_slab.hpp>

namespace funcmesh::setup_detail {

// Sorted node ids; unused entries -1 (so a 3-node face never equals a 4-node one).
using face_key = std::array<index_t, 4>;

// A key with a cell (>= 0: a global cell id, or a slab cell index where so said) or a
// boundary element (-1 - its global row).
struct keyed {
  face_key key;
  index_t cell;
};

inline bool key_then_cell(const keyed& a, const keyed& b) {
  return a.key != b.key ? a.key < b.key : a.cell < b.cell;
}

// Insertion sort of at most four nodes (std::sort on a small std::array trips GCC 12's
// -Warray-bounds).
inline face_key sorted_key(std::span<const index_t> nodes) {
  face_key key{-1, -1, -1, -1};
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    std::size_t pos = k;
    for (; pos > 0 && key[pos - 1] > nodes[k]; --pos) key[pos] = key[pos - 1];
    key[pos] = nodes[k];
  }
  return key;
}

// Face f of a cell of this type with these (global) nodes.
inline face_key face_key_of(cell_type type, std::span<const index_t> cell_nodes, int f) {
  const auto local = face_nodes(type, f);
  std::array<index_t, 4> face{};
  for (std::size_t j = 0; j < local.size(); ++j) face[j] = cell_nodes[local[j]];
  return sorted_key({face.data(), local.size()});
}

// SplitMix64's finaliser over the four entries: keys that differ in any bit spread evenly.
inline std::uint64_t hash_of(const face_key& key) {
  std::uint64_t h = 0;
  for (index_t k : key) {
    std::uint64_t x = h ^ static_cast<std::uint64_t>(k);
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    h = x ^ (x >> 31);
  }
  return h;
}

// The error for a face of more than two cells (global cell ids): no dual graph exists.
inline std::string shared_by_many(const mesh_slab& slab, const std::vector<index_t>& cells) {
  std::string names;
  for (std::size_t k = 0; k < cells.size(); ++k) {
    names += (k > 0 ? ", " : "") + std::to_string(cells[k]);
  }
  return (slab.source.empty() ? std::string() : slab.source + ": ") + "a face is shared by " +
         std::to_string(cells.size()) + " cells (global cell indices " + names +
         "): the mesh is not a manifold";
}

// Calls visit(key, slab cell index) for every face of every slab cell, in cell order.
template <class Visit>
void for_each_face(const mesh_slab& slab, Visit&& visit) {
  for (index_t c = 0; c < slab.cells.size(); ++c) {
    const cell_type type = slab.cells.types[static_cast<std::size_t>(c)];
    const auto nodes = slab.cells.nodes_of(c);
    for (int f = 0; f < face_count(type); ++f) visit(face_key_of(type, nodes, f), c);
  }
}

}  // namespace funcmesh::setup_detail
