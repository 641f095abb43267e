// The chunk setting of the overlapped interior loop and the progress call between chunks.
#include <funcmesh/comm/halo_progress.hpp>

#include <algorithm>
#include <atomic>
#include <string>

#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/comm/halo_plan.hpp>
#include <funcmesh/core/error.hpp>
#include <funcmesh/core/settings.hpp>
#include <funcmesh/exec/executor.hpp>

namespace funcmesh {

namespace {
std::atomic<int> chunk_setting{0};  // 0: not taken from funcmesh::settings yet

int chunks_from_environment() { return settings::get().halo_progress_chunks.value(); }
}  // namespace

int halo_progress_chunks() {
  int chunks = chunk_setting.load(std::memory_order_acquire);
  if (chunks == 0) {  // threads racing here read the same environment
    int expected = 0;
    chunk_setting.compare_exchange_strong(expected, chunks_from_environment());
    chunks = chunk_setting.load(std::memory_order_acquire);
  }
  return chunks;
}

void set_halo_progress_chunks(int chunks) {
  if (chunks < 1) {
    throw error("set_halo_progress_chunks(" + std::to_string(chunks) +
                "): must be >= 1 (1: no progress calls)");
  }
  chunk_setting.store(chunks, std::memory_order_release);
}

namespace detail {

index_t progress_chunk_count(index_t interior) {
  const index_t most = halo_progress_chunks();
  return std::max<index_t>(1, std::min(most, interior / halo_progress_min_chunk));
}

index_t progress_chunk_count(const distributed_layout& layout, const executor& on,
                             index_t interior) {
  if (on.on_device() || layout.exchange_plan().neighbour_count() == 0) return 1;
  return progress_chunk_count(interior);
}

void progress_round(const distributed_layout& layout) { layout.exchange_plan().progress(); }

}  // namespace detail

}  // namespace funcmesh
