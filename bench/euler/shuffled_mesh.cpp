#include "shuffled_mesh.hpp"

#include <random>
#include <utility>

namespace euler_bench {

namespace fm = funcmesh;

namespace {
// Element p of the result is element order[p] of `block` (type, nodes, physical group); the
// ids keep their sequence, as a file numbers its elements in the order it lists them.
fm::element_block permuted(const fm::element_block& block, const std::vector<fm::index_t>& order) {
  fm::element_block out;
  out.types.reserve(block.types.size());
  out.nodes.reserve(block.nodes.size());
  for (std::size_t p = 0; p < order.size(); ++p) {
    const fm::index_t e = order[p];
    out.add(block.types[static_cast<std::size_t>(e)], block.nodes_of(e), block.ids[p],
            block.physical[static_cast<std::size_t>(e)]);
  }
  return out;
}

}  // namespace

// A permutation of 0..n-1 from a seed, the same on every platform (Fisher-Yates on
// mt19937_64, whose output the standard fixes).
std::vector<fm::index_t> permutation(fm::index_t n, std::uint64_t seed) {
  std::vector<fm::index_t> order(static_cast<std::size_t>(n));
  for (fm::index_t k = 0; k < n; ++k) order[static_cast<std::size_t>(k)] = k;
  std::mt19937_64 random(seed);
  for (fm::index_t k = n - 1; k > 0; --k) {
    const auto pick = static_cast<fm::index_t>(random() % static_cast<std::uint64_t>(k + 1));
    std::swap(order[static_cast<std::size_t>(k)], order[static_cast<std::size_t>(pick)]);
  }
  return order;
}

// The same grid with its cells, and its boundary elements, in a random order, as a Gmsh file
// may hold them: the faces and every cell's neighbours follow from the cells' nodes, which
// travel with their cells. The nodes keep their order.
fm::mesh shuffled(const fm::mesh& grid, std::uint64_t seed) {
  fm::mesh out;
  out.dimension = grid.dimension;
  out.coordinates = grid.coordinates;
  out.node_ids = grid.node_ids;
  out.physical_groups = grid.physical_groups;
  out.cells = permuted(grid.cells, permutation(grid.cells.size(), seed));
  out.boundary = permuted(grid.boundary, permutation(grid.boundary.size(), seed + 1));
  return out;
}

}  // namespace euler_bench
