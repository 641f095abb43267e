// MPI return codes turned into exceptions that name the rank and the call, so a failure
// on rank 5 of 512 says where it happened.
#pragma once

#include <mpi.h>

#include <string_view>

#include <funcmesh/core/error.hpp>

namespace funcmesh {

class mpi_error : public error {
 public:
  mpi_error(int code, std::string_view call, MPI_Comm comm);
  int code() const noexcept { return code_; }

 private:
  int code_;
};

// Throws mpi_error unless `code` is MPI_SUCCESS. Only communicators whose error handler
// is MPI_ERRORS_RETURN hand codes back; the default (MPI_ERRORS_ARE_FATAL) aborts first.
inline void check_mpi(int code, std::string_view call, MPI_Comm comm = MPI_COMM_WORLD) {
  if (code != MPI_SUCCESS) throw mpi_error(code, call, comm);
}

}  // namespace funcmesh
