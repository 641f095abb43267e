// The root of every error funcmesh throws (one catch handles them all), agreed_error for
// the errors every rank raises alike, and the framework's own errors; the memory layer's,
// partition's and comm's live in their modules (memory_error.hpp, mesh_read_error.hpp,
// metis_error.hpp, mpi_error.hpp, collective_error.hpp). Messages start with the thrower.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include <funcmesh/core/index.hpp>

namespace funcmesh {

class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An error every rank of a job raises alike, found by a check of what every rank holds
// alike (a boundary group name against the mesh's global list, the command line) or
// agreed over the ranks (mpi::agree): funcmesh::app::run prints it once, from rank 0,
// and every rank exits 1 together instead of aborting the job.
class agreed_error : public error {
 public:
  using error::error;
};

// ---- indices (views, paged arrays) ----

// An index outside [0, size) in a view with checks enabled (debug builds) or in a paged
// array's get/set.
class index_error : public error {
 public:
  index_error(index_t index, index_t size);
};

namespace detail {
[[noreturn]] void throw_index_error(index_t index, index_t size);
}  // namespace detail

// ---- expressions (funcmesh/expr) ----

// An assignment whose target is also read through a proxy: other iterations would read
// values this loop is overwriting.
class aliasing_error : public error {
 public:
  using error::error;
};

// ---- paged arrays (funcmesh/paged) ----

// Sizes, page sizes, cache sizes or channel counts that cannot make a paged array; what()
// names the values and the rule they break. No room in a space is an allocation_error.
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

// ---- time stepping (funcmesh/time) ----

namespace time {
// A scheme or a run the time layer refuses (a tableau that is not explicit, both t_end
// and steps, a dt that is not a positive finite number).
class time_error : public error {
 public:
  using error::error;
};
}  // namespace time

// ---- programs (funcmesh/app) ----

namespace app {
// A command line or an option value that cannot run (an unknown option, a value that is
// not a number, --n 0). Programs on funcmesh::app exit 2 with its message alone; under
// MPI every rank parses the same arguments, so every rank throws it alike.
class usage_error : public agreed_error {
 public:
  using agreed_error::agreed_error;
};
}  // namespace app

}  // namespace funcmesh
