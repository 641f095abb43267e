// The Airfoil benchmark: funcmesh's euler solver (gather and scatter face loops) against a
// plain-loop implementation over raw arrays (plain_airfoil.cpp) on the classic 720k-cell
// grid, and funcmesh's ms/iteration on every executor this build can run. Rank 0 alone
// first (all variants, interleaved rounds), then funcmesh on every rank. Prints
// euler_ms_per_iter_<executor>, euler_ms_per_iter (1 rank, gather form, best CPU executor),
// euler_vs_plain_ratio_scatter and, last, euler_vs_plain_ratio (gather / plain, medians).
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <funcmesh/comm.hpp>
#include <funcmesh/partition/airfoil_grid.hpp>

#include "../../examples/common/arguments.hpp"
#include "../../examples/euler/airfoil_solver.hpp"
#include "../common/mpi_timing.hpp"
#include "plain_airfoil.hpp"

namespace fm = funcmesh;

namespace {

struct settings {
  fm::index_t i = 400;
  fm::index_t j = 600;
  int iterations = 5;  // per timed batch
  int rounds = 5;
  int threads = 1;  // per rank, for both codes
};

// The executors of the per-executor figures: serial, openmp when built, and the first GPU
// when this file was compiled by nvcc and one is visible (available_executors() lists GPUs
// to nvcc-compiled code only: host-compiled expressions cannot launch kernels).
std::vector<fm::executor> timed_executors() {
  std::vector<fm::executor> chosen;
  bool have_gpu = false;
  for (const fm::executor& e : fm::available_executors()) {
    if (e.kind() == fm::executor_kind::cuda) {
      if (have_gpu) continue;  // one GPU is enough for ms/iteration
      have_gpu = true;
    }
    chosen.push_back(e);
  }
  return chosen;
}

// The ratios to the plain loops compare CPU with CPU, as they always have: funcmesh runs on
// the best CPU executor (openmp when built; with the same threads as the plain code), also
// in CUDA builds where the process default would be the GPU.
fm::executor best_cpu(const std::vector<fm::executor>& executors) {
  for (const fm::executor& e : executors)
    if (e.kind() == fm::executor_kind::openmp) return e;
  return fm::executor::serial();
}

// "serial", "openmp", "cuda": the suffix of euler_ms_per_iter_<executor>.
const char* kind_name(const fm::executor& e) {
  switch (e.kind()) {
    case fm::executor_kind::serial:
      return "serial";
    case fm::executor_kind::openmp:
      return "openmp";
    case fm::executor_kind::cuda:
      return "cuda";
  }
  return "unknown";
}

// A solver whose fields live where its executor runs: built and iterated under that
// executor, so that no timed iteration moves data between host and device.
struct solver_on {
  fm::executor on;
  std::unique_ptr<airfoil::solver> solver;

  solver_on(const fm::executor& e, const fm::distributed_layout& layout, airfoil::face_form form)
      : on(e) {
    fm::scoped_executor here(on);
    solver = std::make_unique<airfoil::solver>(layout, form);
  }
  void iterate() {
    fm::scoped_executor here(on);
    solver->iterate(false);
  }
};

int run(fm::mpi::environment& env, int argc, char** argv) {
  const MPI_Comm world = env.world().get();
  int rank = 0, size = 1;
  MPI_Comm_rank(world, &rank);
  MPI_Comm_size(world, &size);
  settings s;
  example::arguments args("euler (benchmark)",
                          "The Airfoil algorithm: funcmesh against plain loops, and funcmesh's "
                          "ms/iteration per executor. Run with mpirun -np 2 for the 2-rank "
                          "figures.");
  args.option("i", s.i, "grid: 3I x J cells");
  args.option("j", s.j, "grid: 3I x J cells");
  args.option("iterations", s.iterations, "iterations per timed batch");
  args.option("rounds", s.rounds, "interleaved rounds (medians are reported)");
  args.option("threads", s.threads, "threads per rank, for both codes");
  try {
    if (!args.parse(argc, argv, rank == 0)) return 0;
  } catch (const example::usage_error& e) {
    if (rank == 0) std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  fm::exec::set_threads_target(s.threads);
  const fm::airfoil_options grid_options{.i = s.i, .j = s.j};
  auto generate = [grid_options] { return fm::airfoil_grid(grid_options); };
  const std::vector<fm::executor> executors = timed_executors();
  const fm::executor cpu = best_cpu(executors);
  if (rank == 0) {
    std::string names;
    for (const fm::executor& e : executors) names += (names.empty() ? "" : ", ") + e.name();
    std::printf(
        "Airfoil benchmark: %lld cells, %d thread(s) per rank, %d rounds of %d iterations\n"
        "executors: %s (the ratios to plain loops use %s)\n\n",
        static_cast<long long>(3 * s.i * s.j), s.threads, s.rounds, s.iterations, names.c_str(),
        cpu.name().c_str());
  }

  // 1. rank 0 alone: plain, funcmesh scatter and funcmesh gather on each executor,
  // interleaved (one warm-up iteration each first: the GPU's first touches its data).
  double plain_ms = 0, gather_ms = 0, scatter_ms = 0;
  std::vector<double> per_executor_ms(executors.size());
  if (rank == 0) {
    const fm::mesh grid = generate();
    plain_airfoil plain(grid, s.threads);
    const fm::distributed_layout alone = fm::distribute_generated(MPI_COMM_SELF, generate);
    solver_on scatter(cpu, alone, airfoil::face_form::scatter);
    std::vector<std::unique_ptr<solver_on>> gathers;
    for (const fm::executor& e : executors)
      gathers.push_back(std::make_unique<solver_on>(e, alone, airfoil::face_form::gather));
    std::vector<std::function<void()>> variants{[&] { plain.iteration(); },
                                                [&] { scatter.iterate(); }};
    for (auto& g : gathers) variants.push_back([&g] { g->iterate(); });
    for (auto& v : variants) v();
    const auto t = bench::interleaved(MPI_COMM_SELF, s.rounds, s.iterations, variants);
    plain_ms = 1e3 * t[0];
    scatter_ms = 1e3 * t[1];
    for (std::size_t k = 0; k < executors.size(); ++k) {
      per_executor_ms[k] = 1e3 * t[2 + k];
      if (executors[k] == cpu) gather_ms = per_executor_ms[k];
    }
    std::printf("== 1. one rank (the whole grid), ms per iteration (medians)\n");
    std::printf("   plain loops (raw arrays, serial face loop): %9.2f\n", plain_ms);
    std::printf("   funcmesh, gather form (reproducible)      : %9.2f  (%.2f x plain, %s)\n",
                gather_ms, gather_ms / plain_ms, cpu.name().c_str());
    std::printf("   funcmesh, scatter form (face order)       : %9.2f  (%.2f x plain, %s)\n\n",
                scatter_ms, scatter_ms / plain_ms, cpu.name().c_str());
    std::printf("   funcmesh, gather form, per executor:\n");
    for (std::size_t k = 0; k < executors.size(); ++k) {
      std::printf("   %-42s: %9.2f  (%.2f x plain)\n", executors[k].name().c_str(),
                  per_executor_ms[k], per_executor_ms[k] / plain_ms);
    }
    std::printf("\n");
  }
  bench::idle_barrier(world);

  // 2. every rank: funcmesh on the partitioned grid, on the CPU executor of section 1.
  if (size > 1) {
    const fm::distributed_layout layout = fm::distribute_generated(world, generate);
    solver_on gather(cpu, layout, airfoil::face_form::gather);
    solver_on scatter(cpu, layout, airfoil::face_form::scatter);
    gather.iterate();  // warm-up, as in section 1
    scatter.iterate();
    const auto t = bench::interleaved(world, s.rounds, s.iterations,
                                      {[&] { gather.iterate(); }, [&] { scatter.iterate(); }});
    if (rank == 0) {
      std::printf("== 2. %d ranks, ms per iteration (medians; efficiency against one rank)\n",
                  size);
      std::printf("   funcmesh, gather form : %9.2f  (efficiency %.2f)\n", 1e3 * t[0],
                  gather_ms / (size * 1e3 * t[0]));
      std::printf("   funcmesh, scatter form: %9.2f  (efficiency %.2f)\n\n", 1e3 * t[1],
                  scatter_ms / (size * 1e3 * t[1]));
    }
  }
  if (rank == 0) {
    for (std::size_t k = 0; k < executors.size(); ++k)
      std::printf("euler_ms_per_iter_%s %.3f\n", kind_name(executors[k]), per_executor_ms[k]);
    std::printf("euler_ms_per_iter %.3f\n", gather_ms);
    std::printf("euler_vs_plain_ratio_scatter %.3f\n", scatter_ms / plain_ms);
    std::printf("euler_vs_plain_ratio %.3f\n", gather_ms / plain_ms);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return fm::mpi::guarded_main(argc, argv,
                               [&](fm::mpi::environment& env) { return run(env, argc, argv); });
}
