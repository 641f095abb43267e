// The set-up projection. Measured here: distribute_slab's phases (setup_report, slowest
// rank, median of 3) on a box3d-tet of --setup-cells-per-rank cells per rank on this job's
// ranks, and the rank-0 path (distribute_generated) of the same mesh on one rank. Projected
// to P ranks at the same cells per rank (docs/scaling.md, "Set-up at scale"):
//   read      max(n b / read bandwidth, P n b / file-system bandwidth), b the file's bytes
//             a cell (its share of connectivity, ids, types, tags and node rows)
//   link      measured per cell x n  +  12 all-to-alls x (P - 1) latencies
//   partition measured x log2(P) / log2(ranks measured): the multilevel partitioners'
//             coarsening levels and their exchanges grow so (an assumption: 4 ranks here)
//   migrate   measured per cell x n  +  (13 + 2 per round) all-to-alls x (P - 1)
//             latencies  +  n x the records' bytes x (1 - 1/P) / bandwidth
//   build     measured per cell x n  +  4 all-to-alls x (P - 1) latencies
// An all-to-all costs P - 1 latencies (pairwise exchange; the counts above are the
// set-up's MPI_Alltoall(v) calls, comm/src/setup/). The rank-0 path reads and partitions
// the whole mesh on one rank: its time per cell measured here times n P.
#include "scaling_setup.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include <funcmesh/comm.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>

#include "../common/mpi_timing.hpp"

namespace fm = funcmesh;

namespace scaling {

namespace {

struct phases {
  double link = 0, partition = 0, migrate = 0, build = 0;
};

double median_of(std::vector<double> v) { return bench::median(v); }

// The file's bytes per cell: connectivity, offsets, types, ids, tags, and the node rows.
double file_bytes_per_cell(const fm::mesh_slab& slab) {
  const double cells = static_cast<double>(slab.cells.size());
  const double cell_bytes =
      8.0 * static_cast<double>(slab.cells.nodes.size()) + cells * (8 + 1 + 8 + 4);
  const double node_bytes = 32.0 * static_cast<double>(slab.coordinates.size());
  return (cell_bytes + node_bytes) / cells;
}

}  // namespace

void project_setup(MPI_Comm world, const setup_settings& s) {
  int ranks = 1, rank = 0;
  MPI_Comm_size(world, &ranks);
  MPI_Comm_rank(world, &rank);
  const auto edge = std::max<index_t>(
      2, static_cast<index_t>(
             std::llround(std::cbrt(static_cast<double>(s.cells_per_rank) * ranks / 6.0))));
  const fm::mesh_slab slab = fm::box_slab("box3d-tet", edge, {}, ranks, rank);
  const double n = static_cast<double>(6 * edge * edge * edge) / ranks;
  std::vector<double> link, partition, migrate, build;
  for (int repeat = 0; repeat < 3; ++repeat) {
    fm::setup_report report;
    MPI_Barrier(world);
    (void)fm::distribute_slab(world, slab, fm::partitioner::automatic, {}, {}, &report);
    double p[4] = {report.link, report.partition, report.migrate, report.build};
    MPI_Allreduce(MPI_IN_PLACE, p, 4, MPI_DOUBLE, MPI_MAX, world);
    link.push_back(p[0]);
    partition.push_back(p[1]);
    migrate.push_back(p[2]);
    build.push_back(p[3]);
  }
  const phases measured{median_of(link), median_of(partition), median_of(migrate),
                        median_of(build)};
  double bytes = file_bytes_per_cell(slab);
  MPI_Allreduce(MPI_IN_PLACE, &bytes, 1, MPI_DOUBLE, MPI_MAX, world);
  // The rank-0 path on one rank, of the same whole mesh (the others wait).
  double rank0_seconds = 0;
  MPI_Comm alone = MPI_COMM_NULL;
  MPI_Comm_split(world, rank == 0 ? 0 : MPI_UNDEFINED, 0, &alone);
  if (alone != MPI_COMM_NULL) {
    const double start = MPI_Wtime();
    (void)fm::distribute_generated(alone, [edge] { return fm::box3d_tet(edge, edge, edge); });
    rank0_seconds = MPI_Wtime() - start;
    MPI_Comm_free(&alone);
  }
  bench::idle_barrier(world);
  if (rank != 0) return;
  const double rank0_per_cell = rank0_seconds / (n * ranks);
  const double log_measured = std::max(1.0, std::log2(static_cast<double>(ranks)));
  const double record_bytes = 8.0 * 19;  // a tet's record: comm/src/setup/cell_records.hpp
  std::printf(
      "== set-up, box3d-tet, %.0f cells per rank (measured on %d rank(s): link %.3f s, "
      "partition %.3f s, migrate %.3f s, build %.3f s; the rank-0 path of the %.0f-cell mesh "
      "on one rank %.3f s)\n"
      "   read %.0f bytes a cell at %.1f GB/s a rank, %.0f GB/s in all; %.1f us a message, "
      "%.1f GB/s a rank\n",
      n, ranks, measured.link, measured.partition, measured.migrate, measured.build, n * ranks,
      rank0_seconds, bytes, s.read_bandwidth * 1e-9, s.file_system_bandwidth * 1e-9,
      s.net.latency * 1e6, s.net.bandwidth * 1e-9);
  std::printf("   %5s %12s | %8s %8s %9s %8s %8s %8s | %-9s | %s\n", "ranks", "cells", "read",
              "link", "partition", "migrate", "build", "total", "dominant", "rank-0 path (s)");
  double last_total = 0, last_rank0 = 0;
  const char* last_dominant = "";
  for (int p = 2; p <= s.max_parts; p *= 2) {
    const double P = p;
    const double latencies = (P - 1) * s.net.latency;
    // As the migration's rounds_for(..., 8): at most 64 MiB and an eighth of the records
    // (but 4 MiB) a round.
    const double mib = 1024.0 * 1024.0;
    const double rounds =
        std::ceil(n * record_bytes / std::min(64 * mib, std::max(4 * mib, n * record_bytes / 8)));
    const double t[5] = {
        std::max(n * bytes / s.read_bandwidth, P * n * bytes / s.file_system_bandwidth),
        measured.link + 12 * latencies, measured.partition * std::log2(P) / log_measured,
        measured.migrate + (13 + 2 * rounds) * latencies +
            n * record_bytes * (1 - 1 / P) / s.net.bandwidth,
        measured.build + 4 * latencies};
    static const char* names[5] = {"read", "link", "partition", "migrate", "build"};
    const int top = static_cast<int>(std::max_element(t, t + 5) - t);
    const double total = t[0] + t[1] + t[2] + t[3] + t[4];
    const double rank0 = rank0_per_cell * n * P;
    std::printf("   %5d %12.0f | %8.3f %8.3f %9.3f %8.3f %8.3f %8.3f | %-9s | %.1f\n", p, n * P,
                t[0], t[1], t[2], t[3], t[4], total, names[top], rank0);
    last_total = total;
    last_rank0 = rank0;
    last_dominant = names[top];
  }
  std::printf("projected_setup_seconds_%d %.3f (dominant: %s; the rank-0 path %.1f)\n\n",
              s.max_parts, last_total, last_dominant, last_rank0);
}

}  // namespace scaling
