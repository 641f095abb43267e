// XXH3-64 through xxhash.h, inlined (XXH_INLINE_ALL): nothing to link (see
// block_checksum.hpp).
#include "block_checksum.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

// GCC 12 sees maybe-uninitialized values inside xxhash's AVX-512 intrinsics: not ours.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace funcmesh::detail {

std::uint64_t checksum_of(const void* data, std::size_t bytes) { return XXH3_64bits(data, bytes); }

std::uint64_t copy_with_checksum(void* to, const void* from, std::size_t bytes) {
  // Pieces that fit in L2 with room to spare: copied, then hashed from cache.
  constexpr std::size_t piece = std::size_t{1} << 17;
  if (bytes <= piece) {
    if (bytes != 0) std::memcpy(to, from, bytes);
    return XXH3_64bits(from, bytes);
  }
  const std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> state(XXH3_createState(),
                                                                       XXH3_freeState);
  if (!state || XXH3_64bits_reset(state.get()) == XXH_ERROR) throw std::bad_alloc();
  auto* out = static_cast<char*>(to);
  const auto* in = static_cast<const char*>(from);
  for (std::size_t done = 0; done < bytes; done += piece) {
    const std::size_t n = std::min(piece, bytes - done);
    std::memcpy(out + done, in + done, n);
    XXH3_64bits_update(state.get(), out + done, n);
  }
  return XXH3_64bits_digest(state.get());
}

}  // namespace funcmesh::detail

#pragma GCC diagnostic pop
