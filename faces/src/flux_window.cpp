// Allocation of the per-worker flux windows of the gather sums (detail/flux_window.hpp).
#include <funcmesh/faces/detail/flux_window.hpp>

#include <algorithm>

#include <funcmesh/exec/thread_policy.hpp>
#include <funcmesh/memory/array.hpp>
#include <funcmesh/memory/buffer.hpp>

namespace funcmesh::detail {

flux_windows make_flux_windows(const face_set& faces, memory_space space, token& holder,
                               std::size_t value_bytes) {
  flux_windows windows;
  const index_t capacity = faces.flux_window();
  if (!space.is_host() || capacity <= 0 || value_bytes == 0) return windows;
  windows.workers = std::max(1, exec::threads_target());
  windows.capacity = static_cast<face_index>(capacity);
  windows.faces = static_cast<face_index>(faces.size());
  windows.safe_faces = static_cast<face_index>(faces.interior_face_end());
  windows.safe_cell = static_cast<face_index>(faces.interior_count());
  const std::size_t values = checked_bytes(capacity, value_bytes);
  // Whole cache lines per worker: no two workers write one line.
  windows.stride = (flux_windows::header_bytes + values + 63) / 64 * 64;
  // A fresh buffer per loop: two sums in one statement never share a window. The token
  // keeps it until the loop is done.
  buffer storage(checked_bytes(static_cast<index_t>(windows.workers), windows.stride));
  windows.base = static_cast<std::byte*>(storage.overwrite_pointer(host_space, holder));
  for (int w = 0; w < windows.workers; ++w) windows.span(w) = {};
  return windows;
}

}  // namespace funcmesh::detail
