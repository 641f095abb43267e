// halo_progress: how a split-phase assignment keeps its halo round moving while it computes
// the owned-interior cells. The interior loop is cut into chunks with an MPI_Testall on the
// round between them, since Open MPI's TCP transport advances a message only inside MPI calls.
#pragma once

#include <algorithm>

#include <funcmesh/core/index.hpp>

namespace funcmesh {

class distributed_layout;
class executor;

// The most chunks an overlapped interior loop is cut into; 1 runs it in one loop with no
// MPI call until the round's end. Default: FUNCMESH_HALO_PROGRESS_CHUNKS when set (a
// positive integer; anything else throws funcmesh::error naming it), else
// default_halo_progress_chunks. Read once; set_halo_progress_chunks overrides it.
// 8: on ci/cluster's 1gbit link a 512 KiB halo round (past Open MPI's 64 KiB eager limit)
// was 0.81-0.97 hidden in 8 chunks against 0.44-0.63 in one loop; a round under the limit
// moves without MPI calls, and a small interior is one chunk anyway (docs/distributed.md).
inline constexpr int default_halo_progress_chunks = 8;
int halo_progress_chunks();
// Throws funcmesh::error unless chunks >= 1.
void set_halo_progress_chunks(int chunks);

// No chunk is cut smaller than this many cells: a chunk is one executor launch.
inline constexpr index_t halo_progress_min_chunk = 4096;

namespace detail {
// How many chunks an interior of `interior` cells is cut into: at most
// halo_progress_chunks(), each at least halo_progress_min_chunk cells, at least 1.
index_t progress_chunk_count(index_t interior);
// The same for a loop on `on` over `layout`: 1 (no chunks, no progress call) where the plan
// has no neighbour (one rank, or a rank without halo) or the loop runs on a device (its
// launch returns at once: the host then waits in the round's end, which progresses it,
// while the device computes the interior).
index_t progress_chunk_count(const distributed_layout& layout, const executor& on,
                             index_t interior);
// The first cell of chunk k of `chunks` over [0, interior): chunk k is
// [chunk_begin(k), chunk_begin(k + 1)), chunk_begin(chunks) == interior.
constexpr index_t chunk_begin(index_t interior, index_t chunks, index_t k) {
  return interior / chunks * k + std::min(k, interior % chunks);
}
// Lets the round in flight on `layout`'s plan advance (halo_plan::progress).
void progress_round(const distributed_layout& layout);
}  // namespace detail

}  // namespace funcmesh
