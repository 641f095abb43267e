// NVTX ranges in CUDA builds: the toolkit's header-only nvtx3 (CMake's CUDA::nvtx3). The
// calls cost next to nothing until a tool (nsys) injects its library.
#include <nvtx3/nvToolsExt.h>

#include <funcmesh/profile/nvtx.hpp>

#include "../nvtx_ranges.hpp"

namespace funcmesh::profile {

namespace detail {

void nvtx_push(const char* name) noexcept { nvtxRangePushA(name); }
void nvtx_pop() noexcept { nvtxRangePop(); }

}  // namespace detail

bool nvtx_available() { return true; }

hooks nvtx_hooks() {
  hooks ranges;
  // Region names are NUL-terminated and live until exit (hooks.hpp).
  ranges.begin = [](const region& r) { detail::nvtx_push(r.name.data()); };
  ranges.end = [](const region&) { detail::nvtx_pop(); };
  return ranges;
}

}  // namespace funcmesh::profile
