// The Airfoil benchmark: funcmesh's euler solver (gather and scatter face loops) against a
// plain-loop implementation over raw arrays (plain_airfoil.cpp, compiled with exactly the
// library's flags) on the classic 720k-cell grid, funcmesh's ms/iteration on every executor
// this build can run, and issue 13's memory and locality figures. In order:
//  0. memory, first, while the processes are fresh: the euler example's set-up (layout,
//     solver, pressure field, 10 iterations) on rank 0 alone, then on ranks 0 and 1;
//  1. rank 0 alone, interleaved rounds: plain, funcmesh scatter, funcmesh gather on each
//     executor, and the gather form on 2 threads;
//  2. funcmesh on every rank (with mpirun -np 2: the 2-rank figure);
//  3. rank 0 alone: the gather form on the grid with its cells shuffled, against the grid.
// Ends with euler_ms_per_iter_<executor>, euler_ms_per_iter (1 rank, gather form, best CPU
// executor), euler_vs_plain_ratio_scatter, the goals euler_2core_vs_plain_ratio,
// euler_peak_bytes_per_cell, euler_steady_ratio_2_ranks, euler_shuffled_ratio and, last,
// euler_vs_plain_ratio (gather / plain, medians), each goal with PASS or MISS (or SKIP
// where this run cannot measure it: 2 ranks need mpirun -np 2). Exit status 0 either way.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <funcmesh/comm.hpp>
#include <funcmesh/partition/airfoil_grid.hpp>

#include <funcmesh/app.hpp>
#include "../../examples/common/memory_report.hpp"
#include "../../examples/euler/airfoil_solver.hpp"
#include "../common/mpi_timing.hpp"
#include "bench_machine.hpp"
#include "plain_airfoil.hpp"
#include "shuffled_mesh.hpp"

namespace fm = funcmesh;

namespace {

using euler_bench::forget_earlier_phases;
using euler_bench::goal_row;
using euler_bench::instruction_set;
using euler_bench::mib;
using euler_bench::neighbours;
using euler_bench::print_goal;
using euler_bench::shuffled;
using euler_bench::widened_affinity;

struct settings {
  fm::index_t i = 400;
  fm::index_t j = 600;
  int iterations = 5;  // per timed batch
  int rounds = 5;
  int threads = 1;  // per rank, for both codes
  int memory_iterations = 10;
  std::uint64_t seed = 13;  // of the shuffled grid
  bool distributed_only = false;
};

// Issue 13's goals.
constexpr double goal_vs_plain = 0.95;        // 1 core, gather form / plain loops
constexpr double goal_2core_vs_plain = 0.47;  // 2 cores, gather form / plain loops on 1 core
constexpr double goal_peak_bytes_per_cell = 300;
constexpr double goal_steady_ratio_2_ranks = 0.6;  // resident after set-up, 2 ranks / 1 rank
constexpr double goal_shuffled_ratio = 1.03;

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

// ---- 0. memory ----------------------------------------------------------------------------

// What examples/euler allocates (the layout of a generated grid, the gather-form solver, the
// pressure field it writes) and `iterations` iterations on comm, on this benchmark's CPU
// executor: this rank's resident size then, its peak (VmHWM) after, and its owned cells.
// Collective over comm.
example::memory_figures euler_set_up(MPI_Comm comm, const fm::executor& cpu,
                                     const std::function<fm::mesh()>& generate, int iterations) {
  example::memory_figures out;
  {
    const fm::distributed_layout layout = fm::distribute_generated(comm, generate);
    const fm::scoped_executor here(cpu);
    airfoil::solver solver(layout, airfoil::face_form::gather);
    fm::dist_function<double> p(layout, "pressure");
    p = fm::zip_with(airfoil::pressure{solver.settings().gm1}, solver.q());
    for (int k = 0; k < iterations; ++k) solver.iterate(false);
    out.sampled = example::resident_bytes();
    out.cells = layout.owned_count();
    p = fm::zip_with(airfoil::pressure{solver.settings().gm1}, solver.q());
  }
  out.peak = example::peak_resident_bytes();
  return out;
}

// --distributed-only: the gather form on every rank, interleaved rounds, the slowest
// rank's time; its last line is euler_ms_per_iter_distributed.
template <class Generate>
int distributed_only(MPI_Comm world, const fm::executor& cpu, const Generate& generate,
                     const settings& s) {
  int rank = 0, size = 1;
  MPI_Comm_rank(world, &rank);
  MPI_Comm_size(world, &size);
  const fm::distributed_layout layout = fm::distribute_generated(world, generate);
  solver_on gather(cpu, layout, airfoil::face_form::gather);
  gather.iterate();
  // Not a braced list in the call: in this template nvcc 13's front end passes
  // {[&] { ... }} on to the host compiler as the bare lambda, which it then rejects.
  std::vector<std::function<void()>> variants;
  variants.emplace_back([&] { gather.iterate(); });
  const double ms = 1e3 * bench::interleaved(world, s.rounds, s.iterations, variants)[0];
  if (rank == 0) {
    std::printf("== %d ranks, funcmesh gather form: %.2f ms per iteration (median)\n", size, ms);
    std::printf("euler_ms_per_iter_distributed %.3f\n", ms);
  }
  return 0;
}

int run(fm::mpi::environment& env, int argc, char** argv) {
  const MPI_Comm world = env.world().get();
  int rank = 0, size = 1;
  MPI_Comm_rank(world, &rank);
  MPI_Comm_size(world, &size);
  settings s;
  funcmesh::app::program args(
      "euler (benchmark)",
      "The Airfoil algorithm: funcmesh against plain loops, funcmesh's "
      "ms/iteration per executor, the memory of examples/euler's set-up "
      "and the cost of a shuffled cell order. Run with mpirun -np 2 for the "
      "2-rank figures.");
  args.option("i", s.i, "grid: 3I x J cells");
  args.option("j", s.j, "grid: 3I x J cells");
  args.option("iterations", s.iterations, "iterations per timed batch");
  args.option("rounds", s.rounds, "interleaved rounds (medians are reported)");
  args.option("threads", s.threads, "threads per rank, for both codes");
  args.option("memory-iterations", s.memory_iterations,
              "iterations before the resident size after set-up is read");
  args.option("seed", s.seed, "of the shuffled grid's cell order");
  args.flag("distributed-only", s.distributed_only,
            "only the gather form on every rank (section 2) and euler_ms_per_iter_distributed: "
            "bench/euler/two_hosts compares hosts with it");
  try {
    if (!args.parse(argc, argv, rank == 0)) return 0;
  } catch (const funcmesh::app::usage_error& e) {
    if (rank == 0) std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  if (s.iterations < 1 || s.rounds < 1 || s.threads < 1 || s.memory_iterations < 0) {
    if (rank == 0) {
      std::fprintf(stderr,
                   "euler (benchmark): --iterations, --rounds and --threads must be >= 1, "
                   "--memory-iterations >= 0\n");
    }
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
        "Airfoil benchmark: %lld cells, %d rank(s), %d thread(s) per rank, %d rounds of %d "
        "iterations\n"
        "executors: %s (the ratios to plain loops use %s); compiled for %s\n\n",
        static_cast<long long>(3 * s.i * s.j), size, s.threads, s.rounds, s.iterations,
        names.c_str(), cpu.name().c_str(), instruction_set());
  }

  if (s.distributed_only) return distributed_only(world, cpu, generate, s);

  // 0. memory, before anything else has run in these processes. A process's figures are
  // those of a fresh run only while it is fresh: what one phase frees shapes the next one's
  // (glibc raises its mmap threshold as big blocks are freed, so later temporaries come from
  // a heap that keeps their pages). So rank 0, fresh, measures 1 rank, and rank 1, fresh,
  // measures its share of 2 ranks (the partition's halves differ by a cell or two). Rank 0
  // takes part in the 2-rank phase after the 1-rank one, trimmed (malloc_trim, its
  // high-water mark reset): its figure there is printed, not used.
  const auto cells = static_cast<double>(3 * s.i * s.j);
  example::memory_figures one_rank;
  std::vector<example::memory_figures> two_ranks;
  if (rank == 0) one_rank = euler_set_up(MPI_COMM_SELF, cpu, generate, s.memory_iterations);
  bench::idle_barrier(world);
  MPI_Comm pair = MPI_COMM_NULL;
  MPI_Comm_split(world, rank < 2 ? 0 : MPI_UNDEFINED, rank, &pair);
  if (pair != MPI_COMM_NULL && size >= 2) {
    if (rank == 0) forget_earlier_phases();
    two_ranks =
        example::gather_memory(pair, euler_set_up(pair, cpu, generate, s.memory_iterations));
  }
  if (pair != MPI_COMM_NULL) MPI_Comm_free(&pair);
  bench::idle_barrier(world);
  double steady_ratio = 0;  // rank 1's (the fresh one's) resident size over 1 rank's
  if (rank == 0) {
    std::printf(
        "== 0. memory: examples/euler's set-up (layout, gather-form solver, pressure field) and "
        "%d iterations, in these processes before any other phase\n",
        s.memory_iterations);
    std::printf(
        "   1 rank (rank 0)  : peak %s (%.0f bytes per cell), after set-up %s (%.0f bytes "
        "per cell)\n",
        mib(one_rank.peak).c_str(), static_cast<double>(one_rank.peak) / cells,
        mib(one_rank.sampled).c_str(), static_cast<double>(one_rank.sampled) / cells);
    for (std::size_t r = 0; r < two_ranks.size(); ++r) {
      const double ratio =
          static_cast<double>(two_ranks[r].sampled) / static_cast<double>(one_rank.sampled);
      if (r > 0) steady_ratio = std::max(steady_ratio, ratio);
      std::printf(
          "   2 ranks, rank %zu : peak %s, after set-up %s (%.0f bytes per owned cell; %.3f x 1 "
          "rank)%s\n",
          r, mib(two_ranks[r].peak).c_str(), mib(two_ranks[r].sampled).c_str(),
          static_cast<double>(two_ranks[r].sampled) / static_cast<double>(two_ranks[r].cells),
          ratio, r == 0 ? "  [not fresh: after the 1-rank phase; not used]" : "");
    }
    if (two_ranks.empty()) std::printf("   2 ranks: not measured (run with mpirun -np 2)\n");
    std::printf("\n");
  }

  neighbours monitor(world);  // from here on, timings

  // 1. rank 0 alone: plain, funcmesh scatter and funcmesh gather on each executor,
  // interleaved (one warm-up iteration each first: the GPU's first touches its data).
  // With OpenMP, the gather form also runs on 2 threads (the same solver, the thread target
  // raised for its calls only): one rank's share of euler_2core_vs_plain_ratio. Its
  // denominator is the plain code on one core (a variant of its own when --threads is not 1).
  double plain_ms = 0, plain_1core_ms = 0, gather_ms = 0, scatter_ms = 0, two_threads_ms = 0;
  bool time_two_threads = false;
  int section_1_cpus = 0;
  std::size_t widened_threads = 0;
  std::vector<double> per_executor_ms(executors.size());
  if (rank == 0) {
    const widened_affinity cores;
    section_1_cpus = widened_affinity::cpus();
    widened_threads = cores.threads();
    time_two_threads = cpu.kind() == fm::executor_kind::openmp && section_1_cpus >= 2;
    const fm::mesh grid = generate();
    plain_airfoil plain(grid, s.threads);
    std::unique_ptr<plain_airfoil> plain_1core;
    if (s.threads != 1) plain_1core = std::make_unique<plain_airfoil>(grid, 1);
    const fm::distributed_layout alone = fm::distribute_generated(MPI_COMM_SELF, generate);
    solver_on scatter(cpu, alone, airfoil::face_form::scatter);
    std::vector<std::unique_ptr<solver_on>> gathers;
    solver_on* cpu_gather = nullptr;
    for (const fm::executor& e : executors) {
      gathers.push_back(std::make_unique<solver_on>(e, alone, airfoil::face_form::gather));
      if (e == cpu) cpu_gather = gathers.back().get();
    }
    std::vector<std::function<void()>> variants{[&] { plain.iteration(); },
                                                [&] { scatter.iterate(); }};
    for (auto& g : gathers) variants.push_back([&g] { g->iterate(); });
    const std::size_t two_threads_at = variants.size();
    if (time_two_threads) {
      variants.push_back([&] {
        const fm::exec::scoped_thread_policy two(2, fm::exec::parallel_min_size());
        cpu_gather->iterate();
      });
    }
    const std::size_t plain_1core_at = variants.size();
    if (plain_1core) variants.push_back([&] { plain_1core->iteration(); });
    for (auto& v : variants) v();
    // A GPU's loops return once launched: each batch waits for them within its time.
    const fm::exec::loop_label batch_end{"the end of a timed batch"};
    const auto t = bench::interleaved(MPI_COMM_SELF, s.rounds, s.iterations, variants, [&] {
      for (const fm::executor& e : executors) fm::exec::synchronize(e, batch_end);
    });
    plain_ms = 1e3 * t[0];
    scatter_ms = 1e3 * t[1];
    for (std::size_t k = 0; k < executors.size(); ++k) {
      per_executor_ms[k] = 1e3 * t[2 + k];
      if (executors[k] == cpu) gather_ms = per_executor_ms[k];
    }
    if (time_two_threads) two_threads_ms = 1e3 * t[two_threads_at];
    plain_1core_ms = plain_1core ? 1e3 * t[plain_1core_at] : plain_ms;
    std::printf("== 1. one rank (the whole grid, %d CPUs allowed), ms per iteration (medians)\n",
                section_1_cpus);
    std::printf(
        "   how: rank 0 alone%s; its %zu threads allowed on every CPU for this section "
        "(mpirun's binding lifted), as a process started without mpirun runs\n",
        size > 1 ? ", the other ranks asleep in a barrier (no spinning)" : "", widened_threads);
    std::printf("   plain loops (raw arrays, serial face loop): %9.2f\n", plain_ms);
    if (plain_1core)
      std::printf("   plain loops on 1 thread                   : %9.2f\n", plain_1core_ms);
    std::printf("   funcmesh, gather form (reproducible)      : %9.2f  (%.2f x plain, %s)\n",
                gather_ms, gather_ms / plain_ms, cpu.name().c_str());
    std::printf("   funcmesh, scatter form (face order)       : %9.2f  (%.2f x plain, %s)\n",
                scatter_ms, scatter_ms / plain_ms, cpu.name().c_str());
    if (time_two_threads) {
      std::printf(
          "   funcmesh, gather form, 2 threads          : %9.2f  (%.2f x plain on 1 thread)\n",
          two_threads_ms, two_threads_ms / plain_1core_ms);
    }
    std::printf("\n   funcmesh, gather form, per executor:\n");
    for (std::size_t k = 0; k < executors.size(); ++k) {
      std::printf("   %-42s: %9.2f  (%.2f x plain)\n", executors[k].name().c_str(),
                  per_executor_ms[k], per_executor_ms[k] / plain_ms);
    }
    std::printf("\n");
  }
  bench::idle_barrier(world);
  if (const std::string note = monitor.busy_note("section 1"); rank == 0 && !note.empty())
    std::printf("%s\n", note.c_str());
  monitor.start();

  // 2. every rank: funcmesh on the partitioned grid, on the CPU executor of section 1. With
  // 2 ranks of 1 thread, its gather form is the other share of euler_2core_vs_plain_ratio
  // (with more ranks, that figure is not measured: it needs exactly 2).
  double two_ranks_ms = 0;
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
      std::printf("   how: every rank, %d thread(s) each, bound as mpirun placed it\n", s.threads);
      std::printf("   funcmesh, gather form : %9.2f  (efficiency %.2f)\n", 1e3 * t[0],
                  gather_ms / (size * 1e3 * t[0]));
      std::printf("   funcmesh, scatter form: %9.2f  (efficiency %.2f)\n\n", 1e3 * t[1],
                  scatter_ms / (size * 1e3 * t[1]));
    }
    if (size == 2 && s.threads == 1) two_ranks_ms = 1e3 * t[0];
  }
  bench::idle_barrier(world);
  if (const std::string note = monitor.busy_note("section 2"); rank == 0 && !note.empty())
    std::printf("%s\n", note.c_str());
  monitor.start();

  // 3. rank 0 alone: the gather form on the same grid with its cells in a random order,
  // against the generated order, interleaved; then one more iteration of each with the
  // residual, which must agree (the same grid, the same state).
  double shuffled_ms = 0, ordered_ms = 0;
  if (rank == 0) {
    const std::uint64_t seed = s.seed;
    const fm::distributed_layout ordered_layout = fm::distribute_generated(MPI_COMM_SELF, generate);
    const fm::distributed_layout shuffled_layout = fm::distribute_generated(
        MPI_COMM_SELF, [&generate, seed] { return shuffled(generate(), seed); });
    solver_on ordered(cpu, ordered_layout, airfoil::face_form::gather);
    solver_on mixed(cpu, shuffled_layout, airfoil::face_form::gather);
    ordered.iterate();
    mixed.iterate();
    const auto t = bench::interleaved(MPI_COMM_SELF, s.rounds, s.iterations,
                                      {[&] { ordered.iterate(); }, [&] { mixed.iterate(); }});
    ordered_ms = 1e3 * t[0];
    shuffled_ms = 1e3 * t[1];
    double rms[2];
    {
      const fm::scoped_executor here(cpu);
      rms[0] = ordered.solver->iterate(true);
      rms[1] = mixed.solver->iterate(true);
    }
    std::printf("== 3. one rank, the cells in a random order (seed %llu), ms per iteration\n",
                static_cast<unsigned long long>(seed));
    std::printf("   how: rank 0 alone, the other ranks asleep in a barrier, %d thread(s)\n",
                s.threads);
    std::printf("   funcmesh, gather form, generated order: %9.2f\n", ordered_ms);
    std::printf("   funcmesh, gather form, shuffled       : %9.2f  (%.3f x generated order)\n",
                shuffled_ms, shuffled_ms / ordered_ms);
    std::printf(
        "   rms after %d iterations: %.12e generated, %.12e shuffled (relative "
        "difference %.1e: the same grid)\n\n",
        2 + s.rounds * s.iterations, rms[0], rms[1], std::fabs(rms[1] - rms[0]) / rms[0]);
  }
  bench::idle_barrier(world);
  if (const std::string note = monitor.busy_note("section 3"); rank == 0 && !note.empty())
    std::printf("%s\n", note.c_str());
  monitor.start();

  if (rank == 0) {
    for (std::size_t k = 0; k < executors.size(); ++k)
      std::printf("euler_ms_per_iter_%s %.3f\n", kind_name(executors[k]), per_executor_ms[k]);
    std::printf("euler_ms_per_iter %.3f\n", gather_ms);
    std::printf("euler_vs_plain_ratio_scatter %.3f\n", scatter_ms / plain_ms);
    // The better of 1 rank on 2 threads and 2 ranks on 1 thread each, over plain on 1 core.
    std::string two_core_note;
    double two_core_ms = 0;
    char part[96];
    if (time_two_threads) {
      two_core_ms = two_threads_ms;
      std::snprintf(part, sizeof part, "2 threads %.3f", two_threads_ms / plain_1core_ms);
      two_core_note = part;
    } else {
      two_core_note = "2 threads not measured (needs OpenMP and 2 CPUs)";
    }
    if (two_ranks_ms > 0) {
      two_core_ms = two_core_ms > 0 ? std::min(two_core_ms, two_ranks_ms) : two_ranks_ms;
      std::snprintf(part, sizeof part, "%s2 ranks %.3f", two_core_note.empty() ? "" : ", ",
                    two_ranks_ms / plain_1core_ms);
      two_core_note += part;
    } else {
      two_core_note += std::string(two_core_note.empty() ? "" : ", ") +
                       "2 ranks not measured (mpirun -np 2, --threads 1)";
    }
    print_goal({"euler_2core_vs_plain_ratio", two_core_ms / plain_1core_ms, goal_2core_vs_plain,
                two_core_ms > 0, two_core_note, "%.3f"});
    print_goal({"euler_peak_bytes_per_cell", static_cast<double>(one_rank.peak) / cells,
                goal_peak_bytes_per_cell, one_rank.peak > 0, "1 rank, peak " + mib(one_rank.peak),
                "%.0f"});
    print_goal({"euler_steady_ratio_2_ranks", steady_ratio, goal_steady_ratio_2_ranks,
                !two_ranks.empty() && one_rank.sampled > 0,
                two_ranks.empty() ? "needs mpirun -np 2" : "rank 1, fresh", "%.3f"});
    print_goal(
        {"euler_shuffled_ratio", shuffled_ms / ordered_ms, goal_shuffled_ratio, true, "", "%.3f"});
    print_goal({"euler_vs_plain_ratio", gather_ms / plain_ms, goal_vs_plain, true, "", "%.3f"});
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return fm::mpi::guarded_main(argc, argv,
                               [&](fm::mpi::environment& env) { return run(env, argc, argv); });
}
