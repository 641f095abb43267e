// bench/scaling: weak scaling projected to 1,024 ranks. Meshes of growing size at a fixed
// number of cells per part are partitioned as a run would partition them (METIS, the real
// local meshes); each part's shape (owned and halo cells, neighbours, message sizes) and
// the step's measured time per cell go through a network of fixed inputs (scaling_model):
// a projected time per step and efficiency per rank count, for CPU ranks (this machine's
// time per cell) and GPU ranks (bytes per cell at a stated bandwidth: an estimate).
// --measure runs the same step across the ranks it is started on (ci/cluster mpirun) and
// prints projected against measured. docs/scaling.md has the model and the figures.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <funcmesh/app.hpp>
#include <funcmesh/comm.hpp>
#include <funcmesh/comm/app_run.hpp>
#include <funcmesh/core/settings.hpp>
#include <funcmesh/partition/partitioning.hpp>

#include "../common/mpi_timing.hpp"
#include "scaling_measure.hpp"
#include "scaling_model.hpp"
#include "scaling_placement.hpp"
#include "scaling_setup.hpp"
#include "scaling_steps.hpp"

namespace fm = funcmesh;
using scaling::index_t;

namespace {

struct settings {
  std::vector<std::string> families{"airfoil", "tetbox"};
  std::vector<index_t> cells_per_part{50000, 500000};
  index_t max_cells = 4000000;  // the largest mesh partitioned for real
  int max_parts = 1024;
  double gpu_bandwidth = 3e12;
  scaling::network net;  // the fixed inputs unless given
  bool measure = false;
  double link_rate = 0;                   // --measure: bytes per second of the cluster's links
  index_t setup_cells_per_rank = 250000;  // the set-up projection's (0: none)
};

// "10gbit", "1gbit", "500mbit" -> bytes per second.
double link_rate(const std::string& text) {
  for (const auto& [unit, bits] : {std::pair{"gbit", 1e9}, std::pair{"mbit", 1e6}}) {
    if (text.size() > 4 && text.ends_with(unit)) {
      char* end = nullptr;
      const std::string value = text.substr(0, text.size() - 4);
      const double rate = std::strtod(value.c_str(), &end);
      if (end != value.c_str() && *end == '\0' && rate >= 1 && rate <= 1e6) return rate * bits / 8;
    }
  }
  throw fm::app::usage_error("scaling: --link-rate '" + text +
                             "': give e.g. 10gbit or 500mbit (see --help)");
}

// The command line; false after --help. Throws usage_error (exit 2, one line) otherwise.
bool parse(int argc, char** argv, bool print, settings& s) {
  fm::app::program args(
      "scaling",
      "Weak scaling projected to 1,024 ranks (docs/scaling.md). Projection (default): for "
      "each family and cells per part, partitions meshes of 2, 4, 8, ... parts up to "
      "--max-cells cells with METIS, takes every part's shape from its local mesh, and "
      "projects a step's time and weak-scaling efficiency up to --max-parts (beyond the "
      "largest mesh partitioned, from the partition with the most parts of the family, "
      "scaled to the part size: cells by the size, halos by its surface). CPU ranks: this "
      "machine's measured time per cell; GPU ranks: bytes per cell at --gpu-bandwidth, an "
      "estimate. Last line: projected_weak_efficiency_1024 (Airfoil, 500k cells per GPU "
      "rank). Then the set-up (distribute_slab) projected to --max-parts: its phases timed "
      "on this job's ranks with --setup-cells-per-rank box3d-tet cells a rank, each phase's "
      "work per cell kept, its all-to-alls' latencies added, the read sharing a 100 GB/s file "
      "system at 1 GB/s a rank, the partitioner growing as log2 of the ranks; last line of "
      "it: projected_setup_seconds_<P>. --measure (ci/cluster mpirun -np K bench/scaling "
      "--measure --link-rate RATE): runs the step on the ranks it was started on, with each "
      "rank's part of a mesh of K x cells-per-part cells, and prints the model's time (this "
      "run's measured latency, --link-rate as bandwidth, ranks sharing a CPU modelled as "
      "that many times the compute) against the measured one.");
  CLI::Option* families = args.option("families", s.families, "mesh families, comma-separated")
                              ->delimiter(',')
                              ->check(CLI::IsMember({"airfoil", "tetbox"}));
  CLI::Option* sizes =
      args.option("cells-per-part", s.cells_per_part, "cells per part, comma-separated")
          ->delimiter(',')
          ->check(CLI::Range(index_t{100}, index_t{100000000}));
  args.option("max-cells", s.max_cells, "the largest mesh partitioned for real")
      ->check(CLI::Range(index_t{1000}, index_t{2000000000}));
  args.option("max-parts", s.max_parts, "the projection's largest rank count")
      ->check(CLI::Range(2, 1 << 20));
  args.option("latency", s.net.latency, "seconds a message")->check(CLI::Range(0.0, 1.0));
  args.option("bandwidth", s.net.bandwidth, "bytes/s per rank")->check(CLI::Range(1e3, 1e15));
  args.option("hidden", s.net.hidden, "the fraction of a round the split phase hides")
      ->check(CLI::Range(0.0, 1.0));
  args.flag("neighbours-overlap", s.net.neighbours_overlap,
            "messages to different neighbours in flight at once");
  args.option("gpu-bandwidth", s.gpu_bandwidth, "bytes/s of a GPU rank's memory")
      ->check(CLI::Range(1e6, 1e15));
  args.option("setup-cells-per-rank", s.setup_cells_per_rank,
              "box3d-tet cells a rank for the set-up projection (0: skip it)")
      ->check(CLI::Range(index_t{0}, index_t{100000000}));
  bool quick = false;
  args.flag("quick", quick, "small meshes: a check that it runs, its figures mean nothing");
  args.flag("measure", s.measure, "measure the step across this job's ranks (see above)");
  std::string rate;
  args.option("link-rate", rate, "with --measure: the cluster's links, e.g. 10gbit, 500mbit");
  if (!args.parse(argc, argv, print)) return false;
  if (quick) {
    s.setup_cells_per_rank = std::min<index_t>(s.setup_cells_per_rank, 5000);
    s.max_cells = 200000;
    s.max_parts = 64;
    if (sizes->count() == 0) s.cells_per_part = {5000, 20000};
  }
  if (!rate.empty()) s.link_rate = link_rate(rate);
  if (s.measure) {
    if (s.link_rate <= 0) {
      throw fm::app::usage_error(
          "scaling: --measure needs --link-rate (the cluster's rate) (see --help)");
    }
    if (families->count() == 0) s.families = {"airfoil"};
    if (sizes->count() == 0) s.cells_per_part = {5000, 50000};
  }
  return true;
}

// ---- projection ----

std::vector<scaling::part_shape> partitioned_shapes(const fm::mesh& global, int parts) {
  const std::vector<int> part = fm::partition_mesh(global, parts);
  std::vector<scaling::part_shape> shapes;
  for (const fm::local_mesh& m : fm::build_local_meshes(global, part, parts)) {
    shapes.push_back(scaling::shape_of(m));
  }
  return shapes;
}

// The partition with the most parts so far of a family, whatever its part size: beyond
// the largest mesh a part size allows, its parts, scaled to that size, stand for the
// larger rank counts (its worst part has more neighbours than a small partition's).
struct widest_partition {
  int parts = 0;
  index_t per_part = 0;
  std::vector<scaling::part_shape> shapes;
};

// The scheme's rounds, messages and halo bytes as the code sends them: its step run on
// this job's ranks, each with its part of a 20k-cell-a-rank mesh of the family, counted
// from the halo plan (collective). On one rank nothing is sent: the scheme's last counted
// figures stay, and the output says so.
void count_traffic(MPI_Comm world, scaling::scheme& scheme, bool print) {
  int size = 1;
  MPI_Comm_size(world, &size);
  const fm::distributed_layout layout = fm::distribute_generated(
      world, [&] { return scaling::family_mesh(scheme, index_t{20000} * size); });
  const scaling::traffic t = scaling::count_traffic(scheme, layout, 4);
  if (t.counted) {
    scheme.kind.rounds = static_cast<int>(std::lround(t.rounds));
    scheme.kind.messages_per_round = t.messages_per_round;
    scheme.kind.halo_bytes_per_cell = t.bytes_per_cell;
  }
  if (print) {
    std::printf(
        "%s traffic %s: %.2f rounds a step, %.2f messages to each neighbour a round, %.1f "
        "bytes a halo cell\n",
        scheme.family.c_str(),
        t.counted ? "counted from the code's rounds on this job's ranks"
                  : "not counted (one rank: no neighbour), the last counted figures",
        static_cast<double>(scheme.kind.rounds), scheme.kind.messages_per_round,
        scheme.kind.halo_bytes_per_cell);
  }
}

struct family_result {
  double efficiency = 0;            // the last row's GPU efficiency
  double efficiency_in_flight = 0;  // the same with every neighbour's message in flight at once
};

// The table for one family and part size; returns the GPU efficiency of its last row.
family_result project_family(const settings& s, const scaling::scheme& scheme, index_t per_part,
                             double cpu_seconds_per_cell, int timers, widest_partition& widest) {
  scaling::step_kind cpu = scheme.kind, gpu = scheme.kind;
  cpu.seconds_per_cell = cpu_seconds_per_cell;
  gpu.seconds_per_cell = scheme.bytes_per_cell / s.gpu_bandwidth;
  // Halo work: the GPU's at its bandwidth, the CPU's in proportion to its bytes.
  gpu.halo_seconds_per_cell = scheme.halo_bytes_per_cell / s.gpu_bandwidth;
  cpu.halo_seconds_per_cell =
      cpu_seconds_per_cell * scheme.halo_bytes_per_cell / scheme.bytes_per_cell;
  scaling::network in_flight = s.net;
  in_flight.neighbours_overlap = true;
  std::printf("== %s, %lld cells per part: %s\n", scheme.family.c_str(),
              static_cast<long long>(per_part), scheme.step.c_str());
  std::printf(
      "   a step: %d halo round(s) of %.0f bytes a halo cell, %.2f message(s) to each\n"
      "   neighbour a round, %.2f reductions; CPU %.1f ns a\n"
      "   cell (measured: 1 part, 1 thread, on %d rank(s) at once, one a CPU); GPU %.3f ns a\n"
      "   cell (estimate: %.0f bytes at %.1f TB/s). Network: %.1f us a message, %.1f GB/s,\n"
      "   hidden %.2f, neighbours %s\n",
      cpu.rounds, cpu.halo_bytes_per_cell, cpu.messages_per_round, cpu.reductions,
      cpu.seconds_per_cell * 1e9, timers, gpu.seconds_per_cell * 1e9, scheme.bytes_per_cell,
      s.gpu_bandwidth * 1e-12, s.net.latency * 1e6, s.net.bandwidth * 1e-9, s.net.hidden,
      s.net.neighbours_overlap ? "overlapped" : "one after another");
  std::printf("   %5s %10s %9s %8s %4s %8s | %8s %6s | %8s %8s %8s %6s | %s\n", "ranks", "cells",
              "max owned", "max halo", "nbrs", "msg KiB", "CPU ms", "eff", "GPU us", "exch. us",
              "allred.", "eff", "parts from");
  std::vector<scaling::part_shape> own;
  int own_parts = 0;
  family_result result;
  for (int ranks = 2; ranks <= s.max_parts; ranks *= 2) {
    if (per_part * ranks <= s.max_cells) {
      own = partitioned_shapes(scaling::family_mesh(scheme, per_part * ranks), ranks);
      own_parts = ranks;
      if (ranks > widest.parts) widest = {ranks, per_part, own};
    } else if (own.empty() && widest.parts == 0) {
      std::printf("   (2 parts of %lld cells are over --max-cells: nothing to project)\n\n",
                  static_cast<long long>(per_part));
      return result;
    }
    std::vector<scaling::part_shape> shapes = own;
    std::string from = "partitioned";
    if (own_parts != ranks) {
      if (widest.parts > own_parts) {
        const double factor = static_cast<double>(per_part) / static_cast<double>(widest.per_part);
        shapes.clear();
        for (const auto& p : widest.shapes) {
          shapes.push_back(scaling::scaled(p, factor, scheme.dimension));
        }
        from = std::to_string(widest.parts) + " parts of " + std::to_string(widest.per_part) +
               ", scaled";
      } else {
        from = std::to_string(own_parts) + " parts'";
      }
    }
    const scaling::projection c = scaling::project(shapes, ranks, cpu, s.net);
    const scaling::projection g = scaling::project(shapes, ranks, gpu, s.net);
    index_t cells = 0;
    for (const auto& p : shapes) cells += p.owned;
    cells = cells / static_cast<index_t>(shapes.size()) * ranks;
    result.efficiency = g.efficiency;
    result.efficiency_in_flight = scaling::project(shapes, ranks, gpu, in_flight).efficiency;
    for (const double e : {c.efficiency, g.efficiency}) {
      // The slowest part computes at least the mean part's cells: anything else is a bug.
      if (!(e > 0 && e <= 1 + 1e-9)) {
        throw fm::error("bench/scaling: efficiency " + std::to_string(e) + " at " +
                        std::to_string(ranks) + " ranks is outside (0, 1]");
      }
    }
    std::printf(
        "   %5d %10lld %9lld %8lld %4d %8.1f | %8.3f %6.3f | %8.1f %8.1f %8.1f %6.3f | %s\n", ranks,
        static_cast<long long>(cells), static_cast<long long>(c.max_owned),
        static_cast<long long>(c.max_halo), c.max_neighbours, c.max_message_bytes / 1024.0,
        c.slowest.total() * 1e3, c.efficiency, g.slowest.total() * 1e6, g.slowest.exchange * 1e6,
        g.slowest.reduction * 1e6, g.efficiency, from.c_str());
  }
  std::printf("\n");
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  return fm::app::run(argc, argv, "scaling", [&](fm::mpi::environment& env, int rank) {
    settings s;
    if (!parse(argc, argv, rank == 0, s)) return 0;
    const MPI_Comm world = env.world().get();
    // One thread per rank unless asked otherwise: the model's time per cell is one core's.
    if (!fm::settings::get().threads_chosen()) fm::exec::set_threads_target(1);
    if (s.measure) {
      scaling::measure(world, {s.families, s.cells_per_part, s.link_rate, s.net});
      return 0;
    }
    // The time per cell on every node's CPUs at once; then the projection partitions in
    // one process: rank 0 works, the others wait. Smallest parts first: they reach the most
    // parts, which the larger sizes' rows beyond their largest mesh borrow.
    const scaling::placement where = scaling::place(world);
    std::vector<index_t> sizes = s.cells_per_part;
    std::ranges::sort(sizes);
    family_result last;
    bool airfoil_500k_1024 = false;
    if (rank == 0) {
      std::printf("bench/scaling: weak scaling projected to %d ranks (docs/scaling.md)\n\n",
                  s.max_parts);
    }
    for (const std::string& family : s.families) {
      scaling::scheme scheme = scaling::scheme_named(family);
      count_traffic(world, scheme, rank == 0);
      std::vector<double> per_cell;
      for (const index_t per_part : sizes) {
        per_cell.push_back(scaling::seconds_per_cell(world, where, scheme, per_part));
      }
      if (rank != 0) continue;
      widest_partition widest;
      for (std::size_t k = 0; k < sizes.size(); ++k) {
        const family_result e =
            project_family(s, scheme, sizes[k], per_cell[k], where.timers, widest);
        if (family == "airfoil" && sizes[k] == 500000 && s.max_parts == 1024) {
          airfoil_500k_1024 = true;
          last = e;
        }
      }
    }
    bench::idle_barrier(world);
    if (s.setup_cells_per_rank > 0) {
      scaling::project_setup(
          world,
          {.cells_per_rank = s.setup_cells_per_rank, .max_parts = s.max_parts, .net = s.net});
    }
    if (rank == 0) {
      if (airfoil_500k_1024) {
        // The table's network (neighbours one after another unless --neighbours-overlap),
        // and, beside it, every neighbour's message in flight at once, as the halo plan
        // starts them (one MPI_Startall a round).
        std::printf("projected_weak_efficiency_1024_messages_in_flight %.3f\n",
                    last.efficiency_in_flight);
        std::printf("projected_weak_efficiency_1024 %.3f\n", last.efficiency);
      } else {
        std::printf(
            "projected_weak_efficiency_1024 not projected (needs the airfoil family, 500000 "
            "cells per part and --max-parts 1024)\n");
      }
    }
    return 0;
  });
}
