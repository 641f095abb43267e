// The errors of paged arrays: a configuration that cannot work (refused before any memory
// is taken) and a store that failed (a file that cannot be made, an I/O error). No room
// in a space is an allocation_error, a bad index an index_error (memory_error.hpp).
#pragma once

#include <funcmesh/core/error.hpp>
#include <funcmesh/memory/memory_error.hpp>

namespace funcmesh {

// Sizes, page sizes, cache sizes or channel counts that cannot make a paged array; what()
// names the values and the rule they break.
class paged_error : public error {
 public:
  using error::error;
};

// A store could not do what was asked: its file cannot be created or reserved, or a read
// or write failed. what() names the file (or space), the bytes and the system's reason.
// A failed write-back leaves its page dirty in the cache, so nothing is lost silently.
class store_error : public error {
 public:
  using error::error;
};

}  // namespace funcmesh
