// The errors every rank of a job raises together: collective_error, thrown by agree() on
// every rank with the lowest failing rank's message, and start_error, the environment's
// failed start. Both are agreed_errors, which funcmesh::app::run prints once.
#pragma once

#include <string>

#include <funcmesh/core/error.hpp>

namespace funcmesh {

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

}  // namespace funcmesh
