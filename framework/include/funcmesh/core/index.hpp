// The index type of every array, view and grid function: signed 64-bit, so that loop
// arithmetic on indices never wraps and meshes beyond 2^31 entities fit.
#pragma once

#include <cstdint>

namespace funcmesh {

using index_t = std::int64_t;

}  // namespace funcmesh
