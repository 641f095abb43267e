#include <funcmesh/expr/assign.hpp>

#include <atomic>
#include <cstdint>
#include <string>

namespace funcmesh::detail {

void check_fused_sizes(const grid_function_base& first, const grid_function_base& other) {
  if (first.owned_size() == other.owned_size() && first.total_size() == other.total_size()) {
    return;
  }
  throw error("funcmesh::assign: fused assignments need targets of equal sizes: " +
              first.describe() + " has " + std::to_string(first.owned_size()) + " owned / " +
              std::to_string(first.total_size()) + " total values, " + other.describe() + " has " +
              std::to_string(other.owned_size()) + " / " + std::to_string(other.total_size()));
}

void check_read_size(const grid_read& read, index_t needed, const grid_function_base& target) {
  if (read.total_size >= needed) return;
  throw error("funcmesh::assign: an assignment to " + target.describe() + " reads " +
              read.describe() + " at indices up to " + std::to_string(needed - 1) +
              ", but it has only " + std::to_string(read.total_size) + " values");
}

namespace {
// Relaxed: a count for tests, not a synchronisation.
std::atomic<std::uint64_t> binds{0};
}  // namespace

std::uint64_t loop_binds() noexcept { return binds.load(std::memory_order_relaxed); }
void count_loop_bind() noexcept { binds.fetch_add(1, std::memory_order_relaxed); }

}  // namespace funcmesh::detail
