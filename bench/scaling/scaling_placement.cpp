#include "scaling_placement.hpp"

#include <sched.h>

#include <algorithm>

#include <funcmesh/comm/distribute.hpp>

#include "../common/mpi_timing.hpp"

namespace scaling {

placement place(MPI_Comm world) {
  placement p;
  int rank = 0, size = 1;
  MPI_Comm_rank(world, &rank);
  MPI_Comm_size(world, &size);
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &p.node_ranks);
  p.node = rank;
  MPI_Bcast(&p.node, 1, MPI_INT, 0, node);
  // The node's CPUs: those its ranks may run on, together (on ci/cluster, the host's set).
  cpu_set_t mask, all;
  CPU_ZERO(&mask);
  CPU_ZERO(&all);
  if (sched_getaffinity(0, sizeof mask, &mask) != 0) CPU_SET(0, &mask);
  static_assert(sizeof(cpu_set_t) % sizeof(unsigned long) == 0);
  MPI_Allreduce(&mask, &all, sizeof(cpu_set_t) / sizeof(unsigned long), MPI_UNSIGNED_LONG, MPI_BOR,
                node);
  p.cpus = std::max(1, CPU_COUNT(&all));
  int node_rank = 0;
  MPI_Comm_rank(node, &node_rank);
  p.timer = node_rank < p.cpus;
  p.cpu_share = std::max(1.0, static_cast<double>(p.node_ranks) / p.cpus);
  const int timing = p.timer ? 1 : 0;
  MPI_Allreduce(&timing, &p.timers, 1, MPI_INT, MPI_SUM, world);
  p.nodes.resize(static_cast<std::size_t>(size));
  MPI_Allgather(&p.node, 1, MPI_INT, p.nodes.data(), 1, MPI_INT, world);
  MPI_Comm_free(&node);
  return p;
}

double pingpong(MPI_Comm world, int a, int b) {
  int rank = 0;
  MPI_Comm_rank(world, &rank);
  std::vector<double> times;
  char byte[8] = {};
  for (int round = 0; round < 11; ++round) {
    MPI_Barrier(world);
    if (a < 0 || b < 0 || a == b) continue;
    const double start = bench::now();
    for (int i = 0; i < 100; ++i) {
      if (rank == a) {
        MPI_Send(byte, 8, MPI_CHAR, b, 7, world);
        MPI_Recv(byte, 8, MPI_CHAR, b, 7, world, MPI_STATUS_IGNORE);
      } else if (rank == b) {
        MPI_Recv(byte, 8, MPI_CHAR, a, 7, world, MPI_STATUS_IGNORE);
        MPI_Send(byte, 8, MPI_CHAR, a, 7, world);
      }
    }
    times.push_back((bench::now() - start) / 200);
  }
  double t = rank == a ? bench::median(times) : 0;
  MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, world);
  return t;
}

double seconds_per_cell(MPI_Comm world, const placement& where, const scheme& s, index_t cells) {
  double t = 0;
  MPI_Barrier(world);
  if (where.timer) {
    const funcmesh::distributed_layout layout =
        funcmesh::distribute_generated(MPI_COMM_SELF, [&] { return family_mesh(s, cells); });
    const int batch = std::max(1, static_cast<int>(2000000 / std::max<index_t>(cells, 1)));
    t = seconds_per_step(s, layout, 5, std::min(batch, 50)) /
        static_cast<double>(layout.owned_count());
  }
  bench::idle_barrier(world);
  return bench::max_over(world, t);
}

}  // namespace scaling
