// The Airfoil benchmark: funcmesh's euler solver (gather and scatter face loops) against a
// plain-loop implementation of the same algorithm over raw arrays (plain_airfoil.cpp), on
// the classic 720k-cell grid. Rank 0 alone first (both codes, interleaved rounds), then
// funcmesh on every rank. Prints euler_ms_per_iter (funcmesh, 1 rank, the default gather
// form), euler_vs_plain_ratio_scatter and, last, euler_vs_plain_ratio (funcmesh's default
// gather form / plain at 1 rank, medians).
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
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

int run(fm::mpi::environment& env, int argc, char** argv) {
  const MPI_Comm world = env.world().get();
  int rank = 0, size = 1;
  MPI_Comm_rank(world, &rank);
  MPI_Comm_size(world, &size);
  settings s;
  example::arguments args("euler (benchmark)",
                          "The Airfoil algorithm: funcmesh against plain loops. Run with "
                          "mpirun -np 2 for the 2-rank figures.");
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
  if (rank == 0) {
    std::printf(
        "Airfoil benchmark: %lld cells, %d thread(s) per rank, %d rounds of %d iterations\n\n",
        static_cast<long long>(3 * s.i * s.j), s.threads, s.rounds, s.iterations);
  }

  // 1. rank 0 alone: plain, funcmesh gather, funcmesh scatter, interleaved.
  double plain_ms = 0, gather_ms = 0, scatter_ms = 0;
  if (rank == 0) {
    const fm::mesh grid = generate();
    plain_airfoil plain(grid, s.threads);
    const fm::distributed_layout alone = fm::distribute_generated(MPI_COMM_SELF, generate);
    airfoil::solver gather(alone, airfoil::face_form::gather);
    airfoil::solver scatter(alone, airfoil::face_form::scatter);
    const auto t = bench::interleaved(MPI_COMM_SELF, s.rounds, s.iterations,
                                      {[&] { plain.iteration(); }, [&] { gather.iterate(false); },
                                       [&] { scatter.iterate(false); }});
    plain_ms = 1e3 * t[0];
    gather_ms = 1e3 * t[1];
    scatter_ms = 1e3 * t[2];
    std::printf("== 1. one rank (the whole grid), ms per iteration (medians)\n");
    std::printf("   plain loops (raw arrays, serial face loop): %9.2f\n", plain_ms);
    std::printf("   funcmesh, gather form (reproducible)      : %9.2f  (%.2f x plain)\n", gather_ms,
                gather_ms / plain_ms);
    std::printf("   funcmesh, scatter form (face order)       : %9.2f  (%.2f x plain)\n\n",
                scatter_ms, scatter_ms / plain_ms);
  }
  bench::idle_barrier(world);

  // 2. every rank: funcmesh on the partitioned grid.
  if (size > 1) {
    const fm::distributed_layout layout = fm::distribute_generated(world, generate);
    airfoil::solver gather(layout, airfoil::face_form::gather);
    airfoil::solver scatter(layout, airfoil::face_form::scatter);
    const auto t =
        bench::interleaved(world, s.rounds, s.iterations,
                           {[&] { gather.iterate(false); }, [&] { scatter.iterate(false); }});
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
