// Allocation of the per-worker flux windows of the gather sums (detail/flux_window.hpp),
// from a pool of buffers kept between loops.
#include <funcmesh/faces/detail/flux_window.hpp>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <vector>

#include <funcmesh/exec/thread_policy.hpp>
#include <funcmesh/memory/array.hpp>
#include <funcmesh/memory/buffer.hpp>

namespace funcmesh::detail {

namespace {

// The windows' buffers. A loop's token holds its windows until the loop is done, so a
// buffer that no token holds is one no loop uses: only such a one is handed out, and two
// sums bound with one token (or loops on two threads) never share one. Taking one (the
// check, then the hold) is one step under the mutex; a token lets go without it, which
// only makes more of them idle.
struct window_pool {
  std::mutex guard;
  std::vector<buffer> buffers;
};

window_pool& pool() {
  static window_pool instance;
  return instance;
}

std::atomic<std::uint64_t> allocations{0};

// At least `bytes` of host memory, held by `holder` for writing: the smallest idle buffer
// that fits, else an idle one (the largest) grown, else a new one.
std::byte* window_memory(std::size_t bytes, token& holder) {
  window_pool& windows = pool();
  const std::lock_guard lock(windows.guard);
  buffer* chosen = nullptr;
  for (buffer& b : windows.buffers) {
    if (b.holders() != 0) continue;
    if (chosen == nullptr) {
      chosen = &b;
      continue;
    }
    const bool fits = b.size_bytes() >= bytes;
    const bool chosen_fits = chosen->size_bytes() >= bytes;
    const bool better = fits ? !chosen_fits || b.size_bytes() < chosen->size_bytes()
                             : !chosen_fits && b.size_bytes() > chosen->size_bytes();
    if (better) chosen = &b;
  }
  if (chosen == nullptr) chosen = &windows.buffers.emplace_back();
  if (chosen->size_bytes() < bytes) {
    chosen->set_size(bytes, preserve::no, holder);
    allocations.fetch_add(1, std::memory_order_relaxed);
  }
  return static_cast<std::byte*>(chosen->overwrite_pointer(host_space, holder));
}

}  // namespace

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
  // The token keeps the buffer until the loop is done: no other sum gets it meanwhile.
  windows.base =
      window_memory(checked_bytes(static_cast<index_t>(windows.workers), windows.stride), holder);
  for (int w = 0; w < windows.workers; ++w) windows.span(w) = {};
  return windows;
}

std::uint64_t flux_window_allocations() noexcept {
  return allocations.load(std::memory_order_relaxed);
}

void release_idle_flux_windows() {
  window_pool& windows = pool();
  const std::lock_guard lock(windows.guard);
  std::erase_if(windows.buffers, [](const buffer& b) { return b.holders() == 0; });
}

}  // namespace funcmesh::detail
