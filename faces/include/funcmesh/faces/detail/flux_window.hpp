// Per-worker windows of face fluxes, for the gather sum of an antisymmetric flux on the
// host: each worker walks its block of cells in order and keeps the fluxes of the faces it
// computed last, so a face's second cell reads its flux instead of evaluating it again.
#pragma once

#include <cstddef>
#include <cstdint>

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/faces/face_set.hpp>
#include <funcmesh/memory/memory_space.hpp>
#include <funcmesh/memory/token.hpp>

namespace funcmesh::detail {

// The faces [lo, hi) one worker's window holds, face f in slot f & (capacity - 1).
struct flux_window_span {
  face_index lo = 0;
  face_index hi = 0;
};

// Per worker: a 64-byte header (its span), then `capacity` values. Trivially copyable; the
// memory belongs to the loop's token.
struct flux_windows {
  std::byte* base = nullptr;  // null: no windows (a device loop, or windows turned off)
  int workers = 0;
  face_index capacity = 0;  // a power of two
  std::size_t stride = 0;   // bytes per worker
  face_index faces = 0;     // the face set's
  // Faces [0, safe_faces) join owned cells only; safe_cell: the first owned cell that is
  // not owned-interior (see windowed_face_sum).
  face_index safe_faces = 0;
  face_index safe_cell = 0;
  static constexpr std::size_t header_bytes = 64;
  // How far a window advances past the faces its cell needs: one fill per few cells.
  static constexpr face_index faces_ahead = 64;

  flux_window_span& span(int worker) const {
    return *reinterpret_cast<flux_window_span*>(base + static_cast<std::size_t>(worker) * stride);
  }
  template <class V>
  V* values(int worker) const {
    return reinterpret_cast<V*>(base + static_cast<std::size_t>(worker) * stride + header_bytes);
  }
};

// Windows of `capacity = faces.flux_window()` values of value_bytes (alignment at most 64)
// for every worker the thread policy may start, held by `holder`, every span empty; none
// (base null) when `space` is not the host or the face set's windows are off. Their memory
// is a buffer of a process-wide pool that no token holds now (two sums of one loop, bound
// with one token, get two), kept for the next loop: a time loop allocates it once.
flux_windows make_flux_windows(const face_set& faces, memory_space space, token& holder,
                               std::size_t value_bytes);

// Buffers the pool allocated (or grew) in this process: for tests that count what a loop
// repeats.
std::uint64_t flux_window_allocations() noexcept;
// Frees the pool's buffers that no token holds (memory back after the face loops).
void release_idle_flux_windows();

// Owned cell c's sum of its faces' fluxes in the gather order, as worker `worker` computes
// it on the host. Source provides first_side_again(f), face f's flux out of its first cell,
// and fill(from, to, ring, mask), the same for faces [from, to) into their slots: members,
// out of line, so that each inlines the flux once (the same bits in both: no contraction,
// no reordering), while this stays small enough to inline into the cell loop.
//
// The window advances when c needs a face past it, computing the faces it does not hold in
// face order, and some ahead (faces_ahead: one call per few cells); a face that has left the window
// (one shared with a cell of another worker's block, or further away in face order than the window
// is long) is computed again. Faces are numbered in the order the cells meet them, so the faces
// below windows.safe_faces join only owned cells; further ones are computed only from a cell at or
// past windows.safe_cell, the first cell a loop reaches only once the halo has arrived (the
// owned-interior cells' loop runs while it is in flight).
template <class V, class Source>
FUNCMESH_INLINE V windowed_face_sum(const face_set_view& faces, const flux_windows& windows,
                                    int worker, index_t c, const Source& source) {
  flux_window_span& span = windows.span(worker);
  V* const ring = windows.values<V>(worker);
  const face_index mask = windows.capacity - 1;
  V sum{};
  const index_t end = faces.offsets[c + 1];
  for (index_t k = faces.offsets[c]; k < end; ++k) {
    const face_index e = faces.entry_face[k];
    const face_index f = static_cast<face_index>(face_set_view::face_of(e));
    if (f >= span.hi) [[unlikely]] {
      face_index from = span.hi;
      if (f - from >= windows.capacity) {  // a jump (a worker's first cell): start over
        from = f;
        span.lo = f;
      }
      const face_index safe = c < windows.safe_cell ? windows.safe_faces : windows.faces;
      const face_index ahead =
          safe - from > flux_windows::faces_ahead ? from + flux_windows::faces_ahead : safe;
      const face_index to = ahead > f ? ahead : f + 1;
      source.fill(from, to, ring, mask);
      span.hi = to;
      if (span.hi - span.lo > windows.capacity) span.lo = span.hi - windows.capacity;
    }
    if (f >= span.lo) [[likely]] {
      sum = face_set_view::add_oriented(sum, e, ring[f & mask]);
    } else {
      sum = face_set_view::add_oriented(sum, e, source.first_side_again(f));
    }
  }
  return V(sum);  // a copy, not NRVO (see bound_cell_face_sum)
}

}  // namespace funcmesh::detail
