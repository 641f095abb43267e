// The SPMD check's switch: FUNCMESH_CHECK_SPMD, or the build type's default.
#include <funcmesh/comm/spmd_check.hpp>

#include <atomic>
#include <cstdlib>
#include <string>

#include <funcmesh/core/error.hpp>

namespace funcmesh {

namespace {

#ifdef NDEBUG
constexpr bool debug_build = false;
#else
constexpr bool debug_build = true;
#endif

// -1: not read yet; 0 or 1 once known.
std::atomic<int> check_state{-1};

int from_environment() {
  const char* text = std::getenv("FUNCMESH_CHECK_SPMD");
  if (text == nullptr) return debug_build ? 1 : 0;
  const std::string value = text;
  if (value == "1") return 1;
  if (value == "0") return 0;
  throw error("funcmesh::check_spmd: FUNCMESH_CHECK_SPMD='" + value +
              "' (use 1 to check, 0 not to)");
}

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
