// Hilbert space-filling-curve partitioning: cells ordered by the Hilbert index of their
// centroid (ties by global index), cut into equal contiguous shares. Needs no graph and no
// library, so it is the dependency-free parallel partitioner and the parallel set-up's
// starting distribution; this serial form is its oracle (the same parts on any rank count).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/partition/mesh.hpp>

namespace funcmesh {

// The axis-aligned box that hilbert_key scales points by: the centroids' own bounds.
struct bounding_box {
  std::array<double, 3> low{0, 0, 0};
  std::array<double, 3> high{0, 0, 0};
};

// The Hilbert index of point p in `box` on a 2^21 grid per axis in 3-D (2^31 in 2-D):
// points in the same grid cell share a key. Dimensions of zero extent count as 0.
std::uint64_t hilbert_key(const std::array<double, 3>& p, const bounding_box& box, int dimension);

// A cell's centroid as every partitioner takes it: the mean of its nodes' coordinates,
// summed in the cell's node order (so the bits do not depend on where it is computed).
std::array<double, 3> node_mean(std::span<const std::array<double, 3>> corners);

// The part of each cell of `m`: sorted by (hilbert_key of its node mean, cell index), the
// k-th cell goes to share_of(cells, parts, k) (mesh_slab.hpp), so parts differ by at most
// one cell. Throws funcmesh::error for parts outside [1, cells].
std::vector<int> partition_hilbert(const mesh& m, int parts);

}  // namespace funcmesh
