// Size arithmetic and layout checks shared by every typed array.
#include <funcmesh/memory/array.hpp>
#include <funcmesh/memory/strided_view.hpp>

#include <algorithm>
#include <limits>
#include <string>

#include <funcmesh/core/error.hpp>

namespace funcmesh::detail {

std::size_t checked_bytes(index_t count, std::size_t element_size) {
  if (count < 0) throw error("array size " + std::to_string(count) + " is negative");
  const auto n = static_cast<std::size_t>(count);
  if (element_size != 0 && n > std::numeric_limits<std::size_t>::max() / element_size)
    throw error("array of " + std::to_string(count) + " elements of " +
                std::to_string(element_size) + " bytes overflows the address space");
  return n * element_size;
}

index_t checked_count(std::size_t bytes, std::size_t element_size) {
  if (bytes % element_size != 0)
    throw error("a buffer of " + std::to_string(bytes) + " bytes is not a whole number of " +
                std::to_string(element_size) + "-byte elements");
  return static_cast<index_t>(bytes / element_size);
}

void check_stride_layout(index_t size, stride_layout layout, index_t elements) {
  auto describe = [&] {
    return "strided array (size " + std::to_string(size) + ", stride " +
           std::to_string(layout.stride) + ", offset " + std::to_string(layout.offset) +
           ", divisor " + std::to_string(layout.divisor) + ", modulo " +
           std::to_string(layout.modulo) + ") over " + std::to_string(elements) + " elements";
  };
  if (size < 0 || layout.stride < 0 || layout.offset < 0 || layout.divisor < 1 || layout.modulo < 0)
    throw error(describe() + ": sizes and offsets must be >= 0, the divisor >= 1");
  if (size == 0) return;
  // The largest location is reached at the largest wrapped index.
  index_t largest = (size - 1) / layout.divisor;
  if (layout.modulo > 0) largest = std::min(largest, layout.modulo - 1);
  index_t location = 0;
  if (__builtin_mul_overflow(largest, layout.stride, &location) ||
      __builtin_add_overflow(location, layout.offset, &location))
    throw error(describe() + ": its locations overflow a 64-bit index");
  if (location >= elements)
    throw error(describe() + ": reaches element " + std::to_string(location) + ", past the end");
}

}  // namespace funcmesh::detail
