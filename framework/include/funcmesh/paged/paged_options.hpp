// The options of a paged array (page size, cached pages) and of its mapped and per-page
// access: plain aggregates, written with designated initializers.
#pragma once

#include <limits>

#include <funcmesh/core/index.hpp>

namespace funcmesh {

// Which cached page a miss replaces. lru: the least recently used (a hit moves its page to
// the front of a list). clock: the first not referenced since the hand last passed it (a
// hit only sets a bit: cheaper hits, an approximation of LRU; see docs/paged.md for the
// measured difference).
enum class page_replacement { lru, clock };

struct paged_options {
  index_t page = 4096;  // elements per page (the unit moved between store and cache)
  index_t cached = 4;   // pages each channel keeps in host memory
  page_replacement replacement = page_replacement::lru;
};

// map(i, n, f, options): whether the buffer is filled from the array before f runs
// (.read), copied back after it (.write), and page-locked while it exists (.pinned).
// With .read = false the buffer starts zeroed, so an f that writes only part of it
// writes zeros, never garbage, to the rest.
struct map_options {
  bool read = true;
  bool write = true;
  bool pinned = false;
};

// map_page(p, access, f): what f does with the cached page. overwrite promises that f
// writes every element, so a page that is not cached is not read from the store first.
enum class page_access { read, write, overwrite };

// find(..., max_per_channel): no cap.
inline constexpr index_t unlimited_matches = std::numeric_limits<index_t>::max();

}  // namespace funcmesh
