// What a paged array's page caches did: hits, misses, write-backs, and the bytes moved
// between store and host each way. Always counted (one increment under a lock already
// held), and the ratio of a cache that saw nothing is 0, never NaN.
#pragma once

#include <cstdint>

namespace funcmesh {

struct cache_statistics {
  std::uint64_t hits = 0;          // get/set/update/map_page that found their page cached
  std::uint64_t misses = 0;        // ... that had to load it (or, for overwrite, claim a slot)
  std::uint64_t write_backs = 0;   // dirty pages written to the store (eviction or flush)
  std::uint64_t prefetches = 0;    // pages loaded in the background by prefetch()
  std::uint64_t direct_reads = 0;  // store reads that bypassed the cache (bulk, uncached)
  std::uint64_t direct_writes = 0;
  std::uint64_t bytes_from_store = 0;  // every byte read from the store, cached or not
  std::uint64_t bytes_to_store = 0;    // every byte written to the store

  // hits / (hits + misses); 0 when there were no cached accesses.
  double hit_ratio() const {
    const std::uint64_t accesses = hits + misses;
    return accesses == 0 ? 0.0 : static_cast<double>(hits) / static_cast<double>(accesses);
  }

  cache_statistics& operator+=(const cache_statistics& other) {
    hits += other.hits;
    misses += other.misses;
    write_backs += other.write_backs;
    prefetches += other.prefetches;
    direct_reads += other.direct_reads;
    direct_writes += other.direct_writes;
    bytes_from_store += other.bytes_from_store;
    bytes_to_store += other.bytes_to_store;
    return *this;
  }
};

}  // namespace funcmesh
