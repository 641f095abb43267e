// bench/scaling's set-up projection: the parallel set-up (distribute_slab) timed per phase
// on the ranks of this job at a fixed number of cells per rank, then projected to 1,024
// ranks: each phase's work per cell stays (weak scaling), its all-to-alls add latencies,
// the file's read shares the file system, and the partitioner grows as log2 of the ranks.
#pragma once

#include <mpi.h>

#include "scaling_model.hpp"

namespace scaling {

struct setup_settings {
  index_t cells_per_rank = 250000;  // box3d-tet cells per rank
  int max_parts = 1024;
  network net;                          // latency and bandwidth per rank
  double read_bandwidth = 1e9;          // bytes per second one rank reads
  double file_system_bandwidth = 1e11;  // bytes per second all ranks read together
  double rank0_memory = 256e9;          // bytes: the rank-0 path needs the whole mesh on one node
};

// Collective over world (the measurement); rank 0 prints the table and what dominates.
void project_setup(MPI_Comm world, const setup_settings& s);

}  // namespace scaling
