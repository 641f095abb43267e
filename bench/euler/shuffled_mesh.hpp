// The classic grid with its cells in a random order, as a Gmsh file may hold them: what
// bench/euler's locality figure (euler_shuffled_ratio) times against the generated order.
#pragma once

#include <cstdint>
#include <vector>

#include <funcmesh/partition/mesh.hpp>

namespace euler_bench {

// A permutation of 0..n-1 from a seed, the same on every platform.
std::vector<funcmesh::index_t> permutation(funcmesh::index_t n, std::uint64_t seed);

// The same grid with its cells, and its boundary elements, in a random order; ids keep
// their sequence, the nodes their order.
funcmesh::mesh shuffled(const funcmesh::mesh& grid, std::uint64_t seed);

}  // namespace euler_bench
