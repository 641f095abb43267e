// No NVTX without CUDA: the table's push and pop do nothing, and nvtx_hooks() are empty.
#include <funcmesh/profile/nvtx.hpp>

#include "../nvtx_ranges.hpp"

namespace funcmesh::profile {

namespace detail {

void nvtx_push(const char*) noexcept {}
void nvtx_pop() noexcept {}

}  // namespace detail

bool nvtx_available() { return false; }

hooks nvtx_hooks() { return {}; }

}  // namespace funcmesh::profile
