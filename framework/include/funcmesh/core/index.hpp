// The index type of every array, view and grid function: signed 64-bit, so that loop
// arithmetic on indices never wraps and meshes beyond 2^31 entities fit.
#pragma once

#include <cstddef>
#include <cstdint>

namespace funcmesh {

using index_t = std::int64_t;

namespace detail {
// An index as a container position: the library's .cpp files index std::vector by index_t.
constexpr std::size_t at(index_t i) { return static_cast<std::size_t>(i); }
}  // namespace detail

}  // namespace funcmesh
