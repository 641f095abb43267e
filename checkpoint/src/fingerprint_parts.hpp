// The mesh fingerprint in two parts, private to the module: this rank's sum of cell hashes
// (no MPI: restart computes it on a second thread while it reads the blocks) and the
// collective total.
#pragma once

#include <cstdint>

#include <funcmesh/comm/distributed_layout.hpp>

namespace funcmesh::detail {

std::uint64_t local_fingerprint_sum(const distributed_layout& layout);
// Collective: mesh_fingerprint(layout) from every rank's local_fingerprint_sum.
std::uint64_t fingerprint_of_sum(const distributed_layout& layout, std::uint64_t local_sum);

}  // namespace funcmesh::detail
