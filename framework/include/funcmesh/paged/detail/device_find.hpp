// device_find: find() on a CUDA device, where a channel's pages live: a kernel compares
// every element there and only the matches come back (not the pages).
#pragma once

#include <cstddef>
#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/paged/page_store.hpp>

namespace funcmesh::detail {

// The element slots k < slots of the `slots * element_bytes` bytes at device address
// `memory` on CUDA device `device` whose bytes [offset, offset + value_bytes) equal the
// request's value, ascending, at most `cap` (the lowest). Throws device_error on a CUDA
// failure, and in a build without CUDA (where no CUDA store can exist).
std::vector<index_t> cuda_find_slots(int device, const std::byte* memory, index_t slots,
                                     std::size_t element_bytes, const find_request& request,
                                     index_t cap);

}  // namespace funcmesh::detail
