// environment: MPI start/stop, and the job-wide abort that keeps one failing rank from
// hanging the others.
#include <funcmesh/comm/environment.hpp>

#include <cstdio>
#include <cstdlib>

#include <funcmesh/comm/collective_error.hpp>
#include <funcmesh/comm/gpu_aware_mpi.hpp>
#include <funcmesh/comm/gpu_binding.hpp>
#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/comm/profile_report.hpp>
#include <funcmesh/comm/thread_share.hpp>
#include <funcmesh/core/settings.hpp>
#include <funcmesh/exec/executor.hpp>

#include "mpi_leaks_ignored.hpp"

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

// Every rank reads and checks every setting before anything uses one: a bad value (say
// FUNCMESH_HALO_PROGRESS_CHUNKS=0x) is one agreed error at start-up, not a throw inside
// some rank's first loop. Each rank checks its own environment: one rank's bad value fails all.
void check_settings(const communicator& world) {
  std::exception_ptr failure;
  try {
    settings::load();
  } catch (...) {
    failure = std::current_exception();
  }
  agree(world, failure);
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
    const detail::mpi_leaks_ignored kept_by_mpi;
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
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  set_executor_notes(rank == 0);
  try {
    check_settings(communicator::world());
    start_up(rank, verbose_requested(argc, argv));
  } catch (const collective_error& failure) {
    if (rank == 0) {
      std::fprintf(stderr, "funcmesh: %s\n", failure.what());
      std::fflush(stderr);
    }
    std::set_terminate(previous_terminate_);
    if (owns_) {
      const detail::mpi_leaks_ignored kept_by_mpi;
      MPI_Finalize();
    }
    throw start_error(failure.what());
  }
}

void environment::start_up(int rank, bool verbose) {
  const communicator world;
  // Ranks on one node divide its cores unless the user chose a thread count.
  const thread_share share = share_node_cores(MPI_COMM_WORLD, threads_variables_set());
  if (rank == 0 && share.oversubscribed) {
    std::fprintf(stderr, "%s\n", oversubscription_note(share).c_str());
    std::fflush(stderr);
  }
  gpu_ = bind_rank_to_gpu(world);
  std::exception_ptr failure;
  bool device_memory_to_mpi = false;
  try {
    // Decided here, once: MPI's answer about device memory cannot fail on one rank later.
    device_memory_to_mpi = gpu_aware();
  } catch (...) {
    failure = std::current_exception();
  }
  agree(world, failure);
  if (!verbose) return;
  if (rank == 0) settings::get().print();
  print_bindings(world, gpu_);
  if (rank == 0) {
    std::fprintf(stderr, "funcmesh: CUDA-aware MPI: %s\n",
                 device_memory_to_mpi ? "yes (device buffers go to MPI directly)"
                                      : "no (device data is staged through pinned host memory)");
    std::fflush(stderr);
  }
}

bool verbose_requested(int argc, char** argv) {
  for (int k = 1; k < argc; ++k) {
    if (argv[k] != nullptr && std::string_view(argv[k]) == "--verbose") return true;
  }
  // Checked at start-up (settings::load) before this is asked; elsewhere a bad value throws.
  return settings::get().verbose.value();
}

environment::~environment() {
  if (std::uncaught_exceptions() > 0 && mpi_running())
    abort_job("funcmesh: exception in flight when the MPI environment ended", 1);
  std::set_terminate(previous_terminate_);
  if (owns_ && mpi_running()) {
    // The last collective before finalizing: every rank ends its environment here.
    report_profile(world());
    const detail::mpi_leaks_ignored kept_by_mpi;
    MPI_Finalize();
  }
}

}  // namespace funcmesh::mpi
