// bench/setup: the set-up's memory per rank and time, the parallel path (slabs, parallel
// partitioner, migration) against the rank-0 path (the whole mesh on one rank or every
// rank, METIS), at 1, 2 and 4 ranks of one job: sub-communicators take turns while the
// other ranks sleep. Each rank's peak resident size is measured per variant by resetting
// Linux's high-water mark (/proc/self/clear_refs) after freeing the previous variant.
// Prints the figures with their goals (PASS/MISS). Run:
//   mpirun -np 4 --oversubscribe build/default/bench/setup
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <funcmesh/app.hpp>
#include <funcmesh/comm.hpp>
#include <funcmesh/faces/detail/freed_memory.hpp>
#include <funcmesh/partition.hpp>

#include "mpi_timing.hpp"

namespace fm = funcmesh;

namespace {

struct settings {
  fm::index_t cells = 4'000'000;        // box3d-tet cells (about)
  fm::index_t airfoil_cells = 720'000;  // the classic 400 x 600 grid
  int repeats = 3;
  std::string partitioner = "auto";
  std::string folder = "setup-bench";  // where the airfoil's .h5 goes
  bool quick = false;
  fm::index_t largest = 0;        // --largest: check one size by the parallel path only
  fm::index_t largest_rank0 = 0;  // --largest-rank0: the same by the rank-0 path
};

std::int64_t status_bytes(const char* key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::string want = std::string(key) + ":";
  while (std::getline(in, line)) {
    if (line.rfind(want, 0) == 0) return 1024 * std::atoll(line.c_str() + want.size());
  }
  return -1;
}

// Frees what the last variant left, then starts a new high-water mark at the current size.
bool reset_peak() {
  fm::detail::return_freed_memory();
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.flush();
  return static_cast<bool>(clear);
}

double mib(double bytes) { return bytes / (1024.0 * 1024.0); }

// One variant's figures on the ranks that ran it.
struct outcome {
  std::vector<double> peak;  // bytes, by rank of the sub-communicator
  double baseline = 0;       // the largest resident size of a rank before the set-up
  double seconds = 0;        // the slowest rank's
  long long edge_cut = 0;
  fm::setup_report phases;  // the parallel path's, slowest rank per phase
};

// Edge cut from a layout: faces between an owned and a halo cell, counted on both sides.
long long edge_cut(const fm::distributed_layout& layout) {
  const fm::local_mesh& local = layout.mesh();
  const auto kinds = fm::classify_faces(local, fm::build_faces(local.cells));
  long long mine = std::count(kinds.begin(), kinds.end(), fm::face_kind::partition_boundary);
  long long total = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, layout.comm());
  return total / 2;
}

using setup_function = std::function<fm::distributed_layout(MPI_Comm, fm::setup_report*)>;

outcome run_variant(MPI_Comm sub, const setup_function& set_up, bool cut) {
  outcome out;
  int size = 1;
  MPI_Comm_size(sub, &size);
  MPI_Barrier(sub);
  const bool reset = reset_peak();
  const double before = static_cast<double>(status_bytes("VmRSS"));
  MPI_Allreduce(&before, &out.baseline, 1, MPI_DOUBLE, MPI_MAX, sub);
  MPI_Barrier(sub);
  const double start = MPI_Wtime();
  fm::setup_report phases;
  {
    const fm::distributed_layout layout = set_up(sub, &phases);
    MPI_Barrier(sub);
    out.seconds = bench::max_over(sub, MPI_Wtime() - start);
    const double peak = reset ? static_cast<double>(status_bytes("VmHWM")) : -1;
    out.peak.resize(static_cast<std::size_t>(size));
    MPI_Allgather(&peak, 1, MPI_DOUBLE, out.peak.data(), 1, MPI_DOUBLE, sub);
    if (cut) out.edge_cut = edge_cut(layout);
  }
  double p[4] = {phases.link, phases.partition, phases.migrate, phases.build};
  MPI_Allreduce(MPI_IN_PLACE, p, 4, MPI_DOUBLE, MPI_MAX, sub);
  out.phases = {p[0], p[1], p[2], p[3]};
  fm::detail::return_freed_memory();
  return out;
}

struct verdicts {
  int missed = 0;
  void report(const char* name, double value, const char* goal, bool pass) {
    std::printf("%-34s %10.3f   goal %-8s %s\n", name, value, goal, pass ? "PASS" : "MISS");
    missed += pass ? 0 : 1;
  }
};

// The figures of one family (a mesh) on sub-communicators of 1, 2 and 4 ranks.
struct family_figures {
  std::string name;
  fm::index_t cells = 0;
  std::vector<int> ranks;                           // the P measured
  std::vector<outcome> parallel, rank0;             // per P (memory, one run each)
  std::vector<double> parallel_times, rank0_times;  // at P = 2, repeats
};

// Runs `variant(P)` on the first P ranks while the others sleep; the outcome on world rank 0.
outcome on_ranks(MPI_Comm world, int ranks, const std::function<outcome(MPI_Comm)>& variant) {
  int rank = 0;
  MPI_Comm_rank(world, &rank);
  MPI_Comm sub = MPI_COMM_NULL;
  MPI_Comm_split(world, rank < ranks ? 0 : MPI_UNDEFINED, rank, &sub);
  outcome out;
  if (sub != MPI_COMM_NULL) {
    out = variant(sub);
    MPI_Comm_free(&sub);
  }
  bench::idle_barrier(world);
  return out;
}

family_figures measure(MPI_Comm world, const std::string& name, fm::index_t cells,
                       const setup_function& parallel, const setup_function& rank0, int repeats) {
  int size = 1;
  MPI_Comm_size(world, &size);
  family_figures f;
  f.name = name;
  f.cells = cells;
  // The most ranks first: a rank's heap is clean before the largest part of its own (the
  // one-rank run, on rank 0, leaves freed pages the allocator may keep).
  for (int ranks : {4, 2, 1}) {
    if (ranks > size) continue;
    f.ranks.insert(f.ranks.begin(), ranks);
    const bool cut = ranks > 1;
    f.parallel.insert(f.parallel.begin(), on_ranks(world, ranks, [&](MPI_Comm sub) {
                        return run_variant(sub, parallel, cut);
                      }));
    f.rank0.insert(f.rank0.begin(), on_ranks(world, ranks, [&](MPI_Comm sub) {
                     return run_variant(sub, rank0, cut);
                   }));
  }
  if (size >= 2) {
    for (int r = 0; r < repeats; ++r) {  // interleaved, so machine noise hits both alike
      f.parallel_times.push_back(on_ranks(world, 2, [&](MPI_Comm sub) {
                                   return run_variant(sub, parallel, false);
                                 }).seconds);
      f.rank0_times.push_back(
          on_ranks(world, 2, [&](MPI_Comm sub) { return run_variant(sub, rank0, false); }).seconds);
    }
  }
  return f;
}

double max_of(const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); }
double mean_of(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return sum / static_cast<double>(v.size());
}

void print_table(const family_figures& f) {
  std::printf(
      "\n%s, %lld cells: peak resident per rank at the end of set-up (MiB; before: the "
      "largest rank's resident size as it began), set-up wall time (s)\n",
      f.name.c_str(), static_cast<long long>(f.cells));
  std::printf("%-10s %5s %10s %10s %10s %9s %9s   %s\n", "path", "ranks", "max", "mean", "rank 0",
              "before", "time", "phases: link / partition / migrate / build (s)");
  for (std::size_t k = 0; k < f.ranks.size(); ++k) {
    for (const auto* o : {&f.parallel[k], &f.rank0[k]}) {
      const bool par = o == &f.parallel[k];
      std::printf("%-10s %5d %10.1f %10.1f %10.1f %9.1f %9.3f", par ? "parallel" : "rank-0",
                  f.ranks[k], mib(max_of(o->peak)), mib(mean_of(o->peak)), mib(o->peak[0]),
                  mib(o->baseline), o->seconds);
      if (par) {
        std::printf("   %.3f / %.3f / %.3f / %.3f", o->phases.link, o->phases.partition,
                    o->phases.migrate, o->phases.build);
      }
      std::printf("\n");
    }
  }
}

// The largest box3d-tet whose set-up fits `budget` bytes over 4 ranks: each rank's peak is
// fitted as a + b cells from two measured sizes (per rank), and summed.
double largest_cells(const outcome& small, fm::index_t small_cells, const outcome& big,
                     fm::index_t big_cells, double budget) {
  double a = 0, b = 0;
  for (std::size_t r = 0; r < big.peak.size(); ++r) {
    const double slope =
        (big.peak[r] - small.peak[r]) / static_cast<double>(big_cells - small_cells);
    b += slope;
    a += big.peak[r] - slope * static_cast<double>(big_cells);
  }
  return b > 0 ? (budget - a) / b : 0;
}

}  // namespace

int main(int argc, char** argv) {
  return fm::app::run(argc, argv, "setup", [&](fm::mpi::environment& env, int rank) {
    const MPI_Comm world = env.world().get();
    int size = 1;
    MPI_Comm_size(world, &size);
    settings s;
    fm::app::program args("setup",
                          "Set-up memory per rank and time: the parallel path (slabs, parallel "
                          "partitioner, migration) against the rank-0 path (whole mesh, METIS), "
                          "at 1, 2 and 4 ranks of one job (run with mpirun -np 4 --oversubscribe)");
    args.option("cells", s.cells, "box3d-tet cells (about)");
    args.option("airfoil-cells", s.airfoil_cells, "Airfoil grid cells (about; 0: skip it)");
    args.option("repeats", s.repeats, "timed repeats of each path at 2 ranks (medians)");
    args.option("partitioner", s.partitioner, "the parallel path's partitioner")
        ->check(CLI::IsMember(fm::app::partitioner_names()));
    args.option("folder", s.folder, "where the Airfoil grid's .h5 mesh file is written");
    args.flag("quick", s.quick, "small meshes: a smoke test, its figures mean nothing");
    args.option("largest", s.largest,
                "only this: set up a box3d-tet of about N cells by the parallel path on every "
                "rank of the job and print the sum of the ranks' peaks against 16 GiB (the "
                "largest_mesh_cells_4_ranks check, run with -np 4)");
    args.option("largest-rank0", s.largest_rank0,
                "only this: the same check by the rank-0 path (METIS on the whole mesh)");
    if (!args.parse(argc, argv, rank == 0)) return 0;
    if (s.quick) {
      s.cells = 24'000;
      s.airfoil_cells = std::min<fm::index_t>(s.airfoil_cells, 12'000);
      s.repeats = 1;
    }
    const fm::partitioner which = fm::partitioner_named(s.partitioner);
    if (which == fm::partitioner::metis) {
      throw fm::app::usage_error("setup: --partitioner metis is the rank-0 path itself");
    }
    const auto n =
        static_cast<fm::index_t>(std::llround(std::cbrt(static_cast<double>(s.cells) / 6)));
    auto tet_parallel = [&](fm::index_t edge) {
      return [edge, which](MPI_Comm c, fm::setup_report* report) {
        int p = 1, q = 0;
        MPI_Comm_size(c, &p);
        MPI_Comm_rank(c, &q);
        return fm::distribute_slab(c, fm::box_slab("box3d-tet", edge, {}, p, q), which, {}, {},
                                   report);
      };
    };
    auto tet_rank0 = [](fm::index_t edge) {
      return [edge](MPI_Comm c, fm::setup_report*) {
        return fm::distribute_generated(c, [edge] { return fm::box3d_tet(edge, edge, edge); });
      };
    };
    if (s.largest > 0 || s.largest_rank0 > 0) {
      const bool parallel = s.largest > 0;
      const fm::index_t cells = parallel ? s.largest : s.largest_rank0;
      const auto edge =
          static_cast<fm::index_t>(std::llround(std::cbrt(static_cast<double>(cells) / 6)));
      const outcome o = run_variant(
          world, parallel ? setup_function(tet_parallel(edge)) : setup_function(tet_rank0(edge)),
          false);
      if (rank == 0) {
        double sum = 0;
        std::printf(
            "largest mesh check, %s path: box3d-tet %lld cells on %d ranks, %.1f s; peak "
            "per rank (MiB):",
            parallel ? "parallel" : "rank-0", static_cast<long long>(6 * edge * edge * edge), size,
            o.seconds);
        for (double peak : o.peak) {
          std::printf(" %.0f", mib(peak));
          sum += peak;
        }
        const double budget = 16.0 * 1024 * 1024 * 1024;
        std::printf("; sum %.2f GiB: %s 16 GiB\n", sum / (1024.0 * 1024 * 1024),
                    sum <= budget ? "within" : "OVER");
      }
      return 0;
    }
    std::vector<family_figures> families;
    families.push_back(
        measure(world, "box3d-tet", 6 * n * n * n, tet_parallel(n), tet_rank0(n), s.repeats));
    // The largest mesh on 4 ranks: a second, smaller size for the fit.
    outcome small_parallel, small_rank0;
    const fm::index_t half = std::max<fm::index_t>(2, n / 2);
    if (size >= 4) {
      small_parallel = on_ranks(
          world, 4, [&](MPI_Comm sub) { return run_variant(sub, tet_parallel(half), false); });
      small_rank0 = on_ranks(
          world, 4, [&](MPI_Comm sub) { return run_variant(sub, tet_rank0(half), false); });
    }
    if (s.airfoil_cells > 0) {
      // i even and j = 1.5 i with 3 i j cells (airfoil_grid.hpp), written once as .h5.
      fm::index_t i =
          2 * std::max<fm::index_t>(
                  1, std::llround(std::sqrt(static_cast<double>(s.airfoil_cells) / 4.5) / 2));
      const fm::airfoil_options grid{.i = i, .j = i * 3 / 2};
      const std::filesystem::path file = std::filesystem::path(s.folder) / "airfoil.h5";
      fm::mpi::on_root_agreed(fm::mpi::communicator(world), [&] {
        std::filesystem::create_directories(s.folder);
        fm::write_mesh_file(file, fm::airfoil_grid(grid));
      });
      families.push_back(measure(
          world, "airfoil (.h5 file)", 3 * grid.i * grid.j,
          [&](MPI_Comm c, fm::setup_report* report) {
            return fm::distribute_slab(c, fm::read_mesh_file(c, file), which, {}, {}, report);
          },
          [grid](MPI_Comm c, fm::setup_report*) {
            return fm::distribute_generated(c, [grid] { return fm::airfoil_grid(grid); });
          },
          s.repeats));
    }
    if (rank != 0) return 0;
    for (const auto& f : families) print_table(f);
    verdicts v;
    std::printf("\nfigures (parallel path: %s; rank-0 path: METIS on the whole mesh)\n",
                s.partitioner.c_str());
    for (const auto& f : families) {
      std::printf("-- %s\n", f.name.c_str());
      const double one = f.parallel[0].peak[0];
      for (std::size_t k = 1; k < f.ranks.size(); ++k) {
        const int p = f.ranks[k];
        const std::string name = "setup_peak_ratio_max (P=" + std::to_string(p) + ")";
        const double ratio = max_of(f.parallel[k].peak) / (one / p);
        v.report(name.c_str(), ratio, "<= 1.5", ratio <= 1.5);
        std::printf("%-34s %10.3f   (the rank-0 path, for comparison)\n", "",
                    max_of(f.rank0[k].peak) / (f.rank0[0].peak[0] / p));
      }
      if (f.ranks.size() >= 3) {
        const double over = f.parallel[2].peak[0] / mean_of(f.parallel[2].peak);
        v.report("setup_rank0_over_mean (P=4)", over, "<= 1.2", over <= 1.2);
        const double cut = static_cast<double>(f.parallel[2].edge_cut) /
                           static_cast<double>(std::max(1LL, f.rank0[2].edge_cut));
        v.report("edgecut_ratio_vs_metis (P=4)", cut, "<= 1.15", cut <= 1.15);
      }
      if (!f.parallel_times.empty()) {
        const double ratio = bench::median(f.parallel_times) / bench::median(f.rank0_times);
        std::printf("set-up at 2 ranks: parallel %.3f s, rank-0 %.3f s (medians of %zu)\n",
                    bench::median(f.parallel_times), bench::median(f.rank0_times),
                    f.parallel_times.size());
        if (&f == &families.front()) {
          v.report("setup_time_ratio (P=2)", ratio, "<= 0.7", ratio <= 0.7);
        } else {
          std::printf("%-34s %10.3f\n", "setup_time_ratio (P=2)", ratio);
        }
      }
    }
    if (size >= 4) {
      const double budget = 16.0 * 1024 * 1024 * 1024;
      const auto& tets = families.front();
      const fm::index_t small_cells = 6 * half * half * half;
      std::printf(
          "largest_mesh_cells_4_ranks (16 GiB in all; projected from %lld and %lld "
          "cells, each rank's peak fitted as a + b cells):\n",
          static_cast<long long>(small_cells), static_cast<long long>(tets.cells));
      std::printf("  parallel path %.3g cells, rank-0 path %.3g cells\n",
                  largest_cells(small_parallel, small_cells, tets.parallel[2], tets.cells, budget),
                  largest_cells(small_rank0, small_cells, tets.rank0[2], tets.cells, budget));
    } else {
      std::printf("(run on 4 ranks for the P=4 figures and the largest mesh)\n");
    }
    std::printf("%d goal(s) missed\n", v.missed);
    return 0;
  });
}
