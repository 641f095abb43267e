// Every error funcmesh throws, in one place: funcmesh::error is the root (one catch
// handles them all), agreed_error marks the errors every rank raises alike, and each
// module's errors derive from them. Messages start with the throwing function's name.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include <funcmesh/core/index.hpp>
#include <funcmesh/memory/memory_space.hpp>

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

// ---- memory: allocations, devices, tokens, index checks (funcmesh/memory) ----

// An allocation failed (or its size overflowed). what() names the bytes and the space.
class allocation_error : public error {
 public:
  allocation_error(std::size_t bytes, memory_space space, const std::string& reason);
  std::size_t bytes() const noexcept { return bytes_; }
  memory_space space() const noexcept { return space_; }

 private:
  std::size_t bytes_;
  memory_space space_;
};

// A space of a kind that is not built in, or a device that is absent.
class device_error : public error {
 public:
  using error::error;
};

// A token request that can never be granted (it would wait on a lock held by its own
// thread), or a token used after its buffer went away.
class token_error : public error {
 public:
  using error::error;
};

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

// ---- meshes (funcmesh/partition) ----

class mesh_read_error : public error {
 public:
  // what() is "<file>:<position>: in <section>: <reason>"; empty parts are left out.
  mesh_read_error(std::string file, std::string position, std::string section, std::string reason);

  const std::string& file() const noexcept { return file_; }
  const std::string& position() const noexcept { return position_; }  // "line 12", "byte 3456"
  const std::string& section() const noexcept { return section_; }    // "$Nodes"
  const std::string& reason() const noexcept { return reason_; }

 private:
  std::string file_;
  std::string position_;
  std::string section_;
  std::string reason_;
};

// A METIS call returned a status other than METIS_OK (check_metis makes the message:
// the call, the status's name, why it is fatal).
class metis_error : public error {
 public:
  metis_error(int status, const std::string& message) : error(message), status_(status) {}
  int status() const noexcept { return status_; }

 private:
  int status_;
};

// ---- MPI (funcmesh/comm) ----

// An MPI call failed; check_mpi (comm/mpi_error.hpp) makes the message: "rank R: <call>
// failed: <MPI's text>".
class mpi_error : public error {
 public:
  mpi_error(int code, const std::string& message) : error(message), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

namespace mpi {

// Thrown on every rank by agree(): carries the lowest failing rank and its message.
class collective_error : public agreed_error {
 public:
  collective_error(int failing_rank, const std::string& message)
      : agreed_error("rank " + std::to_string(failing_rank) + ": " + message),
        failing_rank_(failing_rank) {}
  int failing_rank() const noexcept { return failing_rank_; }

 private:
  int failing_rank_;
};

// The environment's start failed on every rank alike (a bad FUNCMESH_GPU, no GPU under
// FUNCMESH_REQUIRE_GPU=1); rank 0 has printed why, and MPI is finalized.
class start_error : public agreed_error {
 public:
  explicit start_error(const std::string& message) : agreed_error(message) {}
};

}  // namespace mpi

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
