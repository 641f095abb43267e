// Where bench/scaling's ranks run (nodes, CPUs, ranks sharing a CPU), the latency between
// two of them, and a step's time per cell measured on one rank per CPU at once: the
// inputs its measured mode gives the model, and the projection's CPU time per cell.
#pragma once

#include <mpi.h>

#include <vector>

#include "scaling_steps.hpp"

namespace scaling {

struct placement {
  int node = 0;            // the world rank of the node's first rank
  int node_ranks = 1;      // ranks on this rank's node
  int cpus = 1;            // the node's CPUs
  double cpu_share = 1;    // ranks per CPU of the node, at least 1
  bool timer = false;      // one of the node's first `cpus` ranks: times the compute
  int timers = 1;          // how many ranks time the compute, all nodes together
  std::vector<int> nodes;  // every rank's node
};

// Collective over world.
placement place(MPI_Comm world);

// One-way time of an 8-byte message between ranks a and b (half the median round trip);
// the other ranks wait in the barrier. Collective; 0 when a == b or either is negative.
double pingpong(MPI_Comm world, int a, int b);

// Seconds per cell of the scheme's step on a 1-part mesh of `cells` cells, timed on one
// rank per CPU of every node at once (as a run loads its nodes: the cores share the
// memory system: the Airfoil step took 1.35x as long per cell as on one rank alone here);
// the slowest timer's. Collective over world.
double seconds_per_cell(MPI_Comm world, const placement& where, const scheme& s, index_t cells);

}  // namespace scaling
