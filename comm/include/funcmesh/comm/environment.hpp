// environment: MPI started and stopped by RAII, MPI errors returned as codes (check_mpi
// throws them), and an uncaught exception on any rank aborting the whole job, because a
// rank that dies alone leaves its peers waiting in a collective forever.
#pragma once

#include <mpi.h>

#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <funcmesh/comm/collective_error.hpp>
#include <funcmesh/comm/communicator.hpp>

namespace funcmesh::mpi {

class environment {
 public:
  // MPI_Init_thread unless MPI is already running (then this environment neither
  // initializes nor finalizes it). Throws funcmesh::error naming both thread levels
  // when MPI provides less than `required`. Sets MPI_ERRORS_RETURN on MPI_COMM_WORLD
  // and installs the abort-on-terminate handler (the previous one is restored later).
  // Then, collectively:
  //  - reads and checks every setting (funcmesh::settings::load: the FUNCMESH_* variables,
  //    docs/settings.md) on every rank, so a bad value is one agreed error;
  //  - divides each node's cores among its ranks (thread_share.hpp): without
  //    OMP_NUM_THREADS or FUNCMESH_THREADS_TARGET, each rank's thread target becomes its
  //    share; rank 0 prints one line to stderr when ranks x threads oversubscribe;
  //  - binds each rank to its GPU (gpu_binding.hpp: local rank modulo the visible GPUs, or
  //    FUNCMESH_GPU), so that "cuda" means the rank's own device;
  //  - decides whether MPI takes device memory (gpu_aware_mpi.hpp);
  //  - with --verbose among the arguments (or FUNCMESH_VERBOSE=1), rank 0 prints the
  //    settings in force and every rank's host, rank and GPU.
  // Executor notes are left to rank 0. A failure of these steps is agreed: rank 0 prints
  // it, MPI is finalized (when this environment started it) and start_error is thrown on
  // every rank.
  environment(int& argc, char**& argv, int required = MPI_THREAD_FUNNELED);
  // MPI_Finalize when this environment started MPI; while an exception is in flight it
  // aborts the job instead, since finalizing (a collective) could hang on the peers.
  ~environment();
  environment(const environment&) = delete;
  environment& operator=(const environment&) = delete;

  communicator world() const { return communicator::world(); }
  // The GPU this rank is bound to (nullopt without one).
  std::optional<int> gpu() const { return gpu_; }
  int provided_thread_level() const { return provided_; }
  bool owns_mpi() const { return owns_; }

 private:
  void start_up(int rank, bool verbose);

  bool owns_ = false;
  int provided_ = MPI_THREAD_SINGLE;
  std::terminate_handler previous_terminate_ = nullptr;
  std::optional<int> gpu_;
};

// A start that failed on every rank alike throws mpi::start_error (funcmesh/core/error.hpp).

// Whether the command line asks for start-up details: --verbose, or FUNCMESH_VERBOSE=1.
bool verbose_requested(int argc, char** argv);

// "MPI_THREAD_FUNNELED" for MPI_THREAD_FUNNELED, etc.
std::string thread_level_name(int level);

// Prints "[rank R] <message>" to stderr and calls MPI_Abort(MPI_COMM_WORLD, code) (plain
// std::abort when MPI is not running). Never returns.
[[noreturn]] void abort_job(std::string_view message, int code = 1);

// The std::terminate handler the environment installs: prints "[rank R] funcmesh:
// uncaught exception: <what>" and aborts the job. Usable on its own with std::set_terminate.
[[noreturn]] void terminate_job() noexcept;

// A main() for MPI programs: starts the environment, runs body(env) (returning its int,
// or 0) and finalizes. An exception escaping body on any rank prints "[rank R] <what>"
// and aborts the job with exit code 1: one rank's exception cannot be handled
// collectively (its peers may be blocked in a collective that will never complete),
// so aborting is the only way that cannot hang. Errors that every rank sees at the same
// point should use agree() instead, and fail cleanly.
template <class F>
int guarded_main(int& argc, char**& argv, F&& body, int required = MPI_THREAD_FUNNELED) {
  std::optional<environment> env;
  try {
    env.emplace(argc, argv, required);
    if constexpr (std::is_void_v<std::invoke_result_t<F&, environment&>>) {
      body(*env);
      return 0;
    } else {
      return static_cast<int>(body(*env));
    }
  } catch (const start_error&) {
    return 1;  // printed once, MPI finalized: every rank exits cleanly
  } catch (const std::exception& failure) {
    abort_job(failure.what());
  } catch (...) {
    abort_job("unknown exception");
  }
}

}  // namespace funcmesh::mpi
