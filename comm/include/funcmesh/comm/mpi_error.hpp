// MPI return codes turned into exceptions that name the rank and the call, so a failure
// on rank 5 of 512 says where it happened; and rank_prefix() for errors that one rank
// throws on its own.
#pragma once

#include <mpi.h>

#include <string>
#include <string_view>

#include <funcmesh/core/error.hpp>

namespace funcmesh {

// An MPI call failed; check_mpi makes the message: "rank R: <call> failed: <MPI's text>".
class mpi_error : public error {
 public:
  mpi_error(int code, const std::string& message) : error(message), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

namespace mpi {
// "rank R: " with this process's rank in `comm`, to start the message of an error thrown
// on one rank alone; "" while MPI is not running (before MPI_Init, after MPI_Finalize),
// when no rank is there to name. Errors agreed across ranks (mpi::agree) name the
// failing rank already: agree() drops this prefix when it names the same rank.
std::string rank_prefix(MPI_Comm comm = MPI_COMM_WORLD);
}  // namespace mpi

// "rank R: <call> failed: <MPI's text>", R this process's rank in `comm`: the message of
// the mpi_error for `code`.
std::string mpi_failure_message(int code, std::string_view call, MPI_Comm comm);

// Throws mpi_error unless `code` is MPI_SUCCESS. Only communicators whose error handler
// is MPI_ERRORS_RETURN hand codes back; the default (MPI_ERRORS_ARE_FATAL) aborts first.
inline void check_mpi(int code, std::string_view call, MPI_Comm comm = MPI_COMM_WORLD) {
  if (code != MPI_SUCCESS) throw mpi_error(code, mpi_failure_message(code, call, comm));
}

}  // namespace funcmesh
