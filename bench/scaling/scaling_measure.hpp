// bench/scaling --measure: the step on the ranks the run has (ci/cluster mpirun -np K),
// each rank's part of a mesh of K x cells-per-part cells, the model's time for that
// placement (its measured latencies, the link rate, time-sharing) beside the measured one.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "scaling_model.hpp"

namespace scaling {

struct measure_settings {
  std::vector<std::string> families;
  std::vector<index_t> cells_per_part;
  double link_rate = 0;  // bytes per second of the links between nodes
  network net;           // hidden and neighbours_overlap as given; latencies measured
};

// Collective over world; rank 0 prints the table.
void measure(MPI_Comm world, const measure_settings& s);

}  // namespace scaling
