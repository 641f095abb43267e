#include <funcmesh/partition/face_colouring.hpp>

#include <algorithm>
#include <bit>
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

face_block_colouring colour_face_blocks(std::span<const std::array<index_t, 2>> face_cells,
                                        index_t updated_cells, index_t block_size) {
  if (block_size < 1) {
    throw error("funcmesh::colour_face_blocks: block size " + std::to_string(block_size) +
                " (at least 1 face a block)");
  }
  face_block_colouring result;
  const auto faces = static_cast<index_t>(face_cells.size());
  // Equal shares rather than full blocks and a remnant: no tiny last block.
  const index_t count = (faces + block_size - 1) / block_size;
  for (index_t b = 0; b < count; ++b) {
    result.block_offsets.push_back((b + 1) * (faces / count) + std::min(b + 1, faces % count));
  }

  // Greedy in windows of 64 colours, one bit per colour at each cell (OP2's scheme): blocks
  // that find no free colour in the window wait for the next one. Blocks of earlier windows
  // have lower colours than any of this window, so only this window's bits matter.
  std::vector<std::uint64_t> used(static_cast<std::size_t>(std::max<index_t>(updated_cells, 0)));
  std::vector<int> colour(static_cast<std::size_t>(count), -1);
  std::vector<index_t> waiting(static_cast<std::size_t>(count));
  for (index_t b = 0; b < count; ++b) waiting[static_cast<std::size_t>(b)] = b;
  auto updated = [&](index_t c) { return c >= 0 && c < updated_cells; };
  int colours = 0;
  for (int base = 0; !waiting.empty(); base += 64) {
    std::ranges::fill(used, 0);
    std::vector<index_t> later;
    for (const index_t b : waiting) {
      const auto first =
          static_cast<std::size_t>(result.block_offsets[static_cast<std::size_t>(b)]);
      const auto last =
          static_cast<std::size_t>(result.block_offsets[static_cast<std::size_t>(b) + 1]);
      std::uint64_t taken = 0;
      for (std::size_t f = first; f < last; ++f) {
        for (const index_t c : face_cells[f]) {
          if (updated(c)) taken |= used[static_cast<std::size_t>(c)];
        }
      }
      if (taken == ~std::uint64_t{0}) {
        later.push_back(b);
        continue;
      }
      const int k = std::countr_one(taken);
      colour[static_cast<std::size_t>(b)] = base + k;
      colours = std::max(colours, base + k + 1);
      for (std::size_t f = first; f < last; ++f) {
        for (const index_t c : face_cells[f]) {
          if (updated(c)) used[static_cast<std::size_t>(c)] |= std::uint64_t{1} << k;
        }
      }
    }
    waiting = std::move(later);
  }

  std::vector<index_t> counts(static_cast<std::size_t>(colours), 0);
  for (const int k : colour) ++counts[static_cast<std::size_t>(k)];
  for (const index_t n : counts) result.colour_offsets.push_back(result.colour_offsets.back() + n);
  result.blocks.resize(static_cast<std::size_t>(count));
  std::vector<index_t> next(result.colour_offsets.begin(), result.colour_offsets.end() - 1);
  for (index_t b = 0; b < count; ++b) {
    const auto k = static_cast<std::size_t>(colour[static_cast<std::size_t>(b)]);
    result.blocks[static_cast<std::size_t>(next[k]++)] = b;
  }
  return result;
}

}  // namespace funcmesh
