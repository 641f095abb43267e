// What hooks.cpp and table.cpp share inside framework/src/profile: the region names by id,
// and the reading of FUNCMESH_PROFILE at start-up.
#pragma once

#include <cstdint>
#include <string>

namespace funcmesh::profile::detail {

// The name of region `id` (an id named() or of() returned).
std::string region_name(std::uint32_t id);

// FUNCMESH_PROFILE: unset, "" or "0" off; "1" the table (NVTX ranges too in CUDA builds),
// printed at exit; "nvtx" NVTX ranges only. Anything else is named on stderr and leaves
// profiling off. Runs once, from a static initializer of hooks.cpp (which every program
// with a loop links).
void start_from_environment();

}  // namespace funcmesh::profile::detail
