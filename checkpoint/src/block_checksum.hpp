// The checksum of a checkpoint block (format 2): XXH3-64 of its bytes, as python3-xxhash's
// xxh3_64_intdigest computes it. Private to the module.
#pragma once

#include <cstddef>
#include <cstdint>

namespace funcmesh::detail {

// XXH3-64 (seed 0) of `bytes` bytes at `data`.
std::uint64_t checksum_of(const void* data, std::size_t bytes);

// Copies `bytes` bytes to `to` and returns checksum_of(from, bytes), hashing each piece
// while it is still in cache: the staging copy of an asynchronous checkpoint reads its
// source once.
std::uint64_t copy_with_checksum(void* to, const void* from, std::size_t bytes);

}  // namespace funcmesh::detail
