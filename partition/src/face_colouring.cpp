#include <funcmesh/partition/face_colouring.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

#include <funcmesh/core/error.hpp>

namespace funcmesh {

face_colouring colour_faces(std::span<const std::array<index_t, 2>> face_cells,
                            index_t updated_cells) {
  // One bit per colour already taken at each cell: 64 colours cover any cell with up to 64
  // faces (a hexahedron has 6, so greedy needs at most 11 in a hex mesh).
  std::vector<std::uint64_t> used(static_cast<std::size_t>(std::max<index_t>(updated_cells, 0)), 0);
  std::vector<int> colour(face_cells.size(), 0);
  int colours = 0;
  auto updated = [&](index_t c) { return c >= 0 && c < updated_cells; };
  for (std::size_t f = 0; f < face_cells.size(); ++f) {
    std::uint64_t taken = 0;
    for (const index_t c : face_cells[f]) {
      if (updated(c)) taken |= used[static_cast<std::size_t>(c)];
    }
    int k = 0;
    while (k < 64 && ((taken >> k) & 1U) != 0) ++k;
    if (k == 64) {
      throw error("funcmesh::colour_faces: face " + std::to_string(f) +
                  " needs more than 64 colours (a cell with more than 64 faces?)");
    }
    colour[f] = k;
    colours = std::max(colours, k + 1);
    for (const index_t c : face_cells[f]) {
      if (updated(c)) used[static_cast<std::size_t>(c)] |= std::uint64_t{1} << k;
    }
  }
  face_colouring result;
  std::vector<index_t> counts(static_cast<std::size_t>(colours), 0);
  for (const int k : colour) ++counts[static_cast<std::size_t>(k)];
  for (const index_t n : counts) result.offsets.push_back(result.offsets.back() + n);
  result.faces.resize(face_cells.size());
  std::vector<index_t> next(result.offsets.begin(), result.offsets.end() - 1);
  for (std::size_t f = 0; f < face_cells.size(); ++f) {
    result.faces[static_cast<std::size_t>(next[static_cast<std::size_t>(colour[f])]++)] =
        static_cast<index_t>(f);
  }
  return result;
}

}  // namespace funcmesh
