// Messages for MPI errors: the call, this process's rank, and MPI's own text.
#include <funcmesh/comm/mpi_error.hpp>

#include <string>

namespace funcmesh {

std::string mpi::rank_prefix(MPI_Comm comm) {
  // Both queries are allowed at any time, even before MPI_Init and after MPI_Finalize.
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) return {};
  int rank = -1;
  if (MPI_Comm_rank(comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm, &rank) != MPI_SUCCESS) return {};
  return "rank " + std::to_string(rank) + ": ";
}

namespace {
std::string describe(int code, std::string_view call, MPI_Comm comm) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  return mpi::rank_prefix(comm) + std::string(call) + " failed: " +
         (length > 0 ? std::string(text, static_cast<std::size_t>(length))
                     : "MPI error " + std::to_string(code));
}
}  // namespace

std::string mpi_failure_message(int code, std::string_view call, MPI_Comm comm) {
  return describe(code, call, comm);
}

}  // namespace funcmesh
