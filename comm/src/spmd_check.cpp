// The SPMD check's switch: FUNCMESH_CHECK_SPMD (funcmesh::settings), or the build type's
// default.
#include <funcmesh/comm/spmd_check.hpp>

#include <atomic>

#include <funcmesh/core/settings.hpp>

namespace funcmesh {

namespace {

// -1: not read yet; 0 or 1 once known.
std::atomic<int> check_state{-1};

int from_environment() { return settings::get().check_spmd.value() ? 1 : 0; }

}  // namespace

bool spmd_check_enabled() {
  int state = check_state.load(std::memory_order_relaxed);
  if (state < 0) {
    state = from_environment();
    check_state.store(state, std::memory_order_relaxed);
  }
  return state == 1;
}

void set_spmd_check(bool on) { check_state.store(on ? 1 : 0, std::memory_order_relaxed); }

}  // namespace funcmesh
