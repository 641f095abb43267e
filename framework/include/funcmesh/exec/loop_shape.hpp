// loop_shape: what the thread policy needs to know about a loop besides its length:
// whether its work may be split at all, and roughly how much work each element is.
#pragma once

#include <funcmesh/core/index.hpp>

namespace funcmesh::exec {

struct loop_shape {
  // Calls a function marked serial_only: one host thread.
  bool serial_only = false;
  // Cost units per element (1 = one value read, as in y = x + 1; a transcendental call
  // counts 16): the policy compares elements x work with its minimum size.
  index_t work_per_element = 1;
};

}  // namespace funcmesh::exec
