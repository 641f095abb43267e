// NVTX ranges around every loop and halo round, for Nsight Systems: hooks (hooks.hpp) that
// push a range named by the region at begin and pop it at end. CUDA builds only: elsewhere
// the hooks are empty (the NVTX calls live in a file CMake picks, not behind #ifdef).
#pragma once

#include <funcmesh/profile/hooks.hpp>

namespace funcmesh::profile {

// Whether this build has NVTX (a CUDA build).
bool nvtx_available();
// Push/pop hooks in CUDA builds (FUNCMESH_PROFILE=nvtx installs them alone, and
// FUNCMESH_PROFILE=1's table pushes the same ranges); empty hooks elsewhere.
hooks nvtx_hooks();

}  // namespace funcmesh::profile
