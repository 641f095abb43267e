#include "scaling_measure.hpp"

#include <algorithm>
#include <cstdio>

#include <funcmesh/comm/distribute.hpp>

#include "../common/mpi_timing.hpp"
#include "scaling_placement.hpp"
#include "scaling_steps.hpp"

namespace scaling {

void measure(MPI_Comm world, const measure_settings& s) {
  int rank = 0, size = 1;
  MPI_Comm_rank(world, &rank);
  MPI_Comm_size(world, &size);
  const placement where = place(world);
  // Latencies: rank 0 to the first rank on another node, and to another rank on its own.
  int other_node = -1, same_node = -1;
  for (int r = 1; r < size; ++r) {
    const bool same = where.nodes[static_cast<std::size_t>(r)] == where.nodes[0];
    if (same && same_node < 0) same_node = r;
    if (!same && other_node < 0) other_node = r;
  }
  const double between = pingpong(world, 0, other_node);
  const double within = pingpong(world, 0, same_node);
  int node_count = 0;
  for (int r = 0; r < size; ++r) node_count += where.nodes[static_cast<std::size_t>(r)] == r;
  if (rank == 0) {
    std::printf("== measured against projected: %d ranks on %d node(s), up to %.0f rank(s) a CPU\n",
                size, node_count, where.cpu_share);
    std::printf(
        "   model inputs: latency between nodes %.1f us, within a node %.1f us (8-byte "
        "pingpong,\n   measured now), bandwidth between nodes %.3f GB/s (--link-rate, shared "
        "by a node's\n   ranks), within a node not limited; compute: the time per cell of a "
        "1-part mesh on\n   one rank per CPU at once, x ranks per CPU (time-sharing)\n",
        between * 1e6, within * 1e6, s.link_rate * 1e-9);
    std::printf("   %-8s %9s %9s %8s %4s %8s | %9s %9s %9s | %9s %7s\n", "family", "per part",
                "max owned", "max halo", "nbrs", "msg KiB", "compute", "exchange", "projected",
                "measured", "ratio");
  }
  // The ranks of this rank's node (those with a neighbour elsewhere share its link).
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split(world, where.node, rank, &node);
  for (const std::string& family : s.families) {
    scheme scheme = scheme_named(family);
    scheme.kind.reductions = 0;  // the timed steps compute no residual
    for (const index_t per_part : s.cells_per_part) {
      const double per_cell = seconds_per_cell(world, where, scheme, per_part);
      const funcmesh::distributed_layout layout = funcmesh::distribute_generated(
          world, [&] { return family_mesh(scheme, per_part * size); });
      const part_shape shape = shape_of(layout.mesh());
      int leaves = 0;
      for (const int p : shape.neighbour_parts) {
        leaves |= where.nodes[static_cast<std::size_t>(p)] != where.node ? 1 : 0;
      }
      int sharing = 0;
      MPI_Allreduce(&leaves, &sharing, 1, MPI_INT, MPI_SUM, node);
      network net = s.net;
      net.neighbour_latency.assign(1, {});
      net.neighbour_seconds_per_byte.assign(1, {});
      for (const int p : shape.neighbour_parts) {
        const bool local = where.nodes[static_cast<std::size_t>(p)] == where.node;
        net.neighbour_latency[0].push_back(local ? within : between);
        net.neighbour_seconds_per_byte[0].push_back(local ? 0.0
                                                          : std::max(sharing, 1) / s.link_rate);
      }
      net.compute_share = {where.cpu_share};
      step_kind step = scheme.kind;
      step.seconds_per_cell = per_cell;
      // This rank's projection (its slowest part is itself) and its shape's largest figures.
      const projection mine = project({shape}, size, step, net);
      // The slowest rank's projection, and its parts.
      double slowest[3] = {mine.slowest.total(), mine.slowest.compute, mine.slowest.exchange};
      struct {
        double value;
        int rank;
      } key{mine.slowest.total(), rank}, top{};
      MPI_Allreduce(&key, &top, 1, MPI_DOUBLE_INT, MPI_MAXLOC, world);
      MPI_Bcast(slowest, 3, MPI_DOUBLE, top.rank, world);
      double largest[4] = {static_cast<double>(mine.max_owned), static_cast<double>(mine.max_halo),
                           static_cast<double>(mine.max_neighbours), mine.max_message_bytes};
      MPI_Allreduce(MPI_IN_PLACE, largest, 4, MPI_DOUBLE, MPI_MAX, world);
      const auto [owned_max, halo_max, nbrs_max, message] = largest;
      const int batch = std::max(1, std::min(50, static_cast<int>(500000 / per_part)));
      const double measured = seconds_per_step(scheme, layout, 7, batch);
      if (rank == 0) {
        std::printf(
            "   %-8s %9lld %9.0f %8.0f %4.0f %8.1f | %6.3f ms %6.3f ms %6.3f ms | %6.3f ms %7.3f\n",
            family.c_str(), static_cast<long long>(per_part), owned_max, halo_max, nbrs_max,
            message / 1024.0, slowest[1] * 1e3, slowest[2] * 1e3, slowest[0] * 1e3, measured * 1e3,
            measured / slowest[0]);
      }
    }
  }
  MPI_Comm_free(&node);
  if (rank == 0)
    std::printf("   (ratio: measured / projected; the goal is within 0.8 to 1.25)\n\n");
}

}  // namespace scaling
