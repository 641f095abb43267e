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
#include <string_view>
#include <vector>

#include <funcmesh/comm.hpp>
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

const char* usage =
    "Usage: bench/scaling [--families airfoil,tetbox] [--cells-per-part 50000,500000]\n"
    "                     [--max-cells N] [--max-parts P] [--latency S] [--bandwidth B]\n"
    "                     [--hidden H] [--neighbours-overlap] [--gpu-bandwidth B] [--quick]\n"
    "                     [--setup-cells-per-rank N]\n"
    "       ci/cluster mpirun -np K bench/scaling --measure --link-rate RATE\n"
    "                     [--families airfoil] [--cells-per-part 5000,50000]\n"
    "Projection (default): for each family and cells per part, partitions meshes of\n"
    "  2, 4, 8, ... parts up to --max-cells (default 4000000) cells with METIS, takes every\n"
    "  part's shape from its local mesh, and projects a step's time and weak-scaling\n"
    "  efficiency up to --max-parts (default 1024; beyond the largest mesh partitioned,\n"
    "  from the partition with the most parts of the family, scaled to the part size: cells\n"
    "  by the size, halos by its surface). Network: --latency (default 2e-6 s a message),\n"
    "  --bandwidth (25e9 bytes/s per rank), --hidden (0: the fraction of a round the\n"
    "  split phase hides), --neighbours-overlap (messages to different neighbours in\n"
    "  flight at once). CPU ranks: this machine's measured time per cell; GPU ranks: bytes\n"
    "  per cell at --gpu-bandwidth (3e12 bytes/s), an estimate. --quick: small meshes\n"
    "  (a check that it runs). Last line: projected_weak_efficiency_1024 (Airfoil, 500k\n"
    "  cells per GPU rank).\n"
    "  Then the set-up (distribute_slab) projected to --max-parts: its phases timed on this\n"
    "  job's ranks with --setup-cells-per-rank (default 250000; 0: skip) box3d-tet cells a\n"
    "  rank, each phase's work per cell kept, its all-to-alls' latencies added, the read\n"
    "  sharing a 100 GB/s file system at 1 GB/s a rank, the partitioner growing as log2 of\n"
    "  the ranks. Last line of it: projected_setup_seconds_<P>.\n"
    "--measure: runs the step on the ranks it was started on, with each rank's part of a\n"
    "  mesh of K x cells-per-part cells, and prints the model's time (this run's measured\n"
    "  latency, --link-rate as bandwidth, ranks sharing a CPU modelled as that many times\n"
    "  the compute) against the measured one.\n";

[[noreturn]] void bad_argument(const std::string& what) {
  std::fprintf(stderr, "bench/scaling: %s (--help for usage)\n", what.c_str());
  std::exit(2);
}

std::vector<std::string> split(std::string_view text) {
  std::vector<std::string> out;
  while (!text.empty()) {
    const auto comma = text.find(',');
    out.emplace_back(text.substr(0, comma));
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return out;
}

double number(const char* option, const char* text, double low, double high) {
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(value >= low && value <= high)) {
    bad_argument(std::string(option) + " '" + text + "': give a number in [" + std::to_string(low) +
                 ", " + std::to_string(high) + "]");
  }
  return value;
}

// "10gbit", "1gbit", "500mbit" -> bytes per second.
double link_rate(const char* text) {
  const std::string_view t = text;
  for (const auto& [unit, bits] : {std::pair{"gbit", 1e9}, std::pair{"mbit", 1e6}}) {
    if (t.size() > 4 && t.ends_with(unit)) {
      const std::string value(t.substr(0, t.size() - 4));
      return number("--link-rate", value.c_str(), 1, 1e6) * bits / 8;
    }
  }
  bad_argument(std::string("--link-rate '") + text + "': give e.g. 10gbit or 500mbit");
}

settings parse(int argc, char** argv) {
  settings s;
  bool families_given = false, sizes_given = false;
  for (int k = 1; k < argc; ++k) {
    const std::string_view arg = argv[k];
    auto value = [&]() -> const char* {
      if (k + 1 >= argc) bad_argument(std::string(arg) + " needs a value");
      return argv[++k];
    };
    if (arg == "--help" || arg == "-h") {
      std::fputs(usage, stdout);
      std::exit(0);
    } else if (arg == "--families") {
      s.families = split(value());
      families_given = true;
      for (const std::string& f : s.families) {
        if (f != "airfoil" && f != "tetbox") bad_argument("--families: unknown family '" + f + "'");
      }
    } else if (arg == "--cells-per-part") {
      s.cells_per_part.clear();
      for (const std::string& n : split(value())) {
        s.cells_per_part.push_back(
            static_cast<index_t>(number("--cells-per-part", n.c_str(), 100, 1e8)));
      }
      sizes_given = true;
    } else if (arg == "--max-cells") {
      s.max_cells = static_cast<index_t>(number("--max-cells", value(), 1000, 2e9));
    } else if (arg == "--max-parts") {
      s.max_parts = static_cast<int>(number("--max-parts", value(), 2, 1 << 20));
    } else if (arg == "--latency") {
      s.net.latency = number("--latency", value(), 0, 1);
    } else if (arg == "--bandwidth") {
      s.net.bandwidth = number("--bandwidth", value(), 1e3, 1e15);
    } else if (arg == "--hidden") {
      s.net.hidden = number("--hidden", value(), 0, 1);
    } else if (arg == "--neighbours-overlap") {
      s.net.neighbours_overlap = true;
    } else if (arg == "--gpu-bandwidth") {
      s.gpu_bandwidth = number("--gpu-bandwidth", value(), 1e6, 1e15);
    } else if (arg == "--setup-cells-per-rank") {
      s.setup_cells_per_rank =
          static_cast<index_t>(number("--setup-cells-per-rank", value(), 0, 1e8));
    } else if (arg == "--quick") {
      s.setup_cells_per_rank = std::min<index_t>(s.setup_cells_per_rank, 5000);
      s.max_cells = 200000;
      s.max_parts = 64;
      if (!sizes_given) s.cells_per_part = {5000, 20000};
    } else if (arg == "--measure") {
      s.measure = true;
    } else if (arg == "--link-rate") {
      s.link_rate = link_rate(value());
    } else {
      bad_argument(std::string("unknown argument '") + std::string(arg) + "'");
    }
  }
  if (s.measure) {
    if (s.link_rate <= 0) bad_argument("--measure needs --link-rate (the cluster's rate)");
    if (!families_given) s.families = {"airfoil"};
    if (!sizes_given) s.cells_per_part = {5000, 50000};
  }
  return s;
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

// The table for one family and part size; returns the GPU efficiency of its last row.
double project_family(const settings& s, const scaling::scheme& scheme, index_t per_part,
                      double cpu_seconds_per_cell, int timers, widest_partition& widest) {
  scaling::step_kind cpu = scheme.kind, gpu = scheme.kind;
  cpu.seconds_per_cell = cpu_seconds_per_cell;
  gpu.seconds_per_cell = scheme.bytes_per_cell / s.gpu_bandwidth;
  std::printf("== %s, %lld cells per part: %s\n", scheme.family.c_str(),
              static_cast<long long>(per_part), scheme.step.c_str());
  std::printf(
      "   a step: %d halo round(s) of %.0f bytes a halo cell, %.2f reductions; CPU %.1f ns a\n"
      "   cell (measured: 1 part, 1 thread, on %d rank(s) at once, one a CPU); GPU %.3f ns a\n"
      "   cell (estimate: %.0f bytes at %.1f TB/s). Network: %.1f us a message, %.1f GB/s,\n"
      "   hidden %.2f, neighbours %s\n",
      cpu.rounds, cpu.halo_bytes_per_cell, cpu.reductions, cpu.seconds_per_cell * 1e9, timers,
      gpu.seconds_per_cell * 1e9, scheme.bytes_per_cell, s.gpu_bandwidth * 1e-12,
      s.net.latency * 1e6, s.net.bandwidth * 1e-9, s.net.hidden,
      s.net.neighbours_overlap ? "overlapped" : "one after another");
  std::printf("   %5s %10s %9s %8s %4s %8s | %8s %6s | %8s %8s %8s %6s | %s\n", "ranks", "cells",
              "max owned", "max halo", "nbrs", "msg KiB", "CPU ms", "eff", "GPU us", "exch. us",
              "allred.", "eff", "parts from");
  std::vector<scaling::part_shape> own;
  int own_parts = 0;
  double efficiency = 0;
  for (int ranks = 2; ranks <= s.max_parts; ranks *= 2) {
    if (per_part * ranks <= s.max_cells) {
      own = partitioned_shapes(scaling::family_mesh(scheme, per_part * ranks), ranks);
      own_parts = ranks;
      if (ranks > widest.parts) widest = {ranks, per_part, own};
    } else if (own.empty() && widest.parts == 0) {
      std::printf("   (2 parts of %lld cells are over --max-cells: nothing to project)\n\n",
                  static_cast<long long>(per_part));
      return 0;
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
    efficiency = g.efficiency;
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
  return efficiency;
}

}  // namespace

int main(int argc, char** argv) {
  const settings s = parse(argc, argv);
  return fm::mpi::guarded_main(argc, argv, [&s](fm::mpi::environment& env) {
    const MPI_Comm world = env.world().get();
    int rank = 0;
    MPI_Comm_rank(world, &rank);
    // One thread per rank unless asked otherwise: the model's time per cell is one core's.
    if (std::getenv("FUNCMESH_THREADS_TARGET") == nullptr &&
        std::getenv("OMP_NUM_THREADS") == nullptr) {
      fm::exec::set_threads_target(1);
    }
    if (s.measure) {
      scaling::measure(world, {s.families, s.cells_per_part, s.link_rate, s.net});
      return;
    }
    // The time per cell on every node's CPUs at once; then the projection partitions in
    // one process: rank 0 works, the others wait. Smallest parts first: they reach the most
    // parts, which the larger sizes' rows beyond their largest mesh borrow.
    const scaling::placement where = scaling::place(world);
    std::vector<index_t> sizes = s.cells_per_part;
    std::ranges::sort(sizes);
    double last = -1;
    bool airfoil_500k_1024 = false;
    if (rank == 0) {
      std::printf("bench/scaling: weak scaling projected to %d ranks (docs/scaling.md)\n\n",
                  s.max_parts);
    }
    for (const std::string& family : s.families) {
      const scaling::scheme scheme = scaling::scheme_named(family);
      std::vector<double> per_cell;
      for (const index_t per_part : sizes) {
        per_cell.push_back(scaling::seconds_per_cell(world, where, scheme, per_part));
      }
      if (rank != 0) continue;
      widest_partition widest;
      for (std::size_t k = 0; k < sizes.size(); ++k) {
        const double e = project_family(s, scheme, sizes[k], per_cell[k], where.timers, widest);
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
        std::printf("projected_weak_efficiency_1024 %.3f\n", last);
      } else {
        std::printf(
            "projected_weak_efficiency_1024 not projected (needs the airfoil family, 500000 "
            "cells per part and --max-parts 1024)\n");
      }
    }
  });
}
