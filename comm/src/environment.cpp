// environment: MPI start/stop, and the job-wide abort that keeps one failing rank from
// hanging the others.
#include <funcmesh/comm/environment.hpp>

#include <cstdio>
#include <cstdlib>

#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/comm/thread_share.hpp>

namespace funcmesh::mpi {

namespace {

bool mpi_running() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

// "[rank R]" starts every line abort_job writes; rank_prefix() starts error messages.
std::string rank_text() {
  int rank = -1;
  if (mpi_running() && MPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS)
    return std::to_string(rank);
  return "?";
}

}  // namespace

std::string thread_level_name(int level) {
  if (level == MPI_THREAD_SINGLE) return "MPI_THREAD_SINGLE";
  if (level == MPI_THREAD_FUNNELED) return "MPI_THREAD_FUNNELED";
  if (level == MPI_THREAD_SERIALIZED) return "MPI_THREAD_SERIALIZED";
  if (level == MPI_THREAD_MULTIPLE) return "MPI_THREAD_MULTIPLE";
  return "thread level " + std::to_string(level);
}

void abort_job(std::string_view message, int code) {
  const std::string line = "[rank " + rank_text() + "] " + std::string(message) + "\n";
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  if (mpi_running()) MPI_Abort(MPI_COMM_WORLD, code);
  std::abort();  // MPI not running, or MPI_Abort returned
}

void terminate_job() noexcept {
  std::string what = "no active exception (std::terminate called directly)";
  if (const std::exception_ptr current = std::current_exception()) {
    try {
      std::rethrow_exception(current);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
      what = "unknown exception";
    }
  }
  abort_job("funcmesh: uncaught exception: " + what, 1);
}

environment::environment(int& argc, char**& argv, int required) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) {
    MPI_Query_thread(&provided_);
  } else {
    // The default handler (fatal) is in force here; a failed start aborts on its own.
    MPI_Init_thread(&argc, &argv, required, &provided_);
    owns_ = true;
  }
  previous_terminate_ = std::set_terminate(terminate_job);
  check_mpi(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN),
            "MPI_Comm_set_errhandler(MPI_COMM_WORLD)");
  if (provided_ < required) {
    // MPI stays up: finalizing is collective, and guarded_main aborts the job anyway.
    std::set_terminate(previous_terminate_);
    throw error(rank_prefix() + "MPI provides " + thread_level_name(provided_) +
                " but funcmesh requires " + thread_level_name(required));
  }
  // Ranks on one node divide its cores unless the user chose a thread count.
  const thread_share share = share_node_cores(MPI_COMM_WORLD, threads_variables_set());
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0 && share.oversubscribed) {
    std::fprintf(stderr, "%s\n", oversubscription_note(share).c_str());
    std::fflush(stderr);
  }
}

environment::~environment() {
  if (std::uncaught_exceptions() > 0 && mpi_running())
    abort_job("funcmesh: exception in flight when the MPI environment ended", 1);
  std::set_terminate(previous_terminate_);
  if (owns_ && mpi_running()) MPI_Finalize();
}

}  // namespace funcmesh::mpi
