// The steps bench/scaling projects and times: an Airfoil iteration (examples/euler's
// solver, gather form) on the Airfoil grid family, and an explicit diffusion step on the
// 3-D tetrahedral box. Each names its mesh family, its halo traffic and its memory traffic.
#pragma once

#include <mpi.h>

#include <string>

#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/partition/mesh.hpp>

#include "scaling_model.hpp"

namespace scaling {

struct scheme {
  std::string family;  // "airfoil" or "tetbox"
  std::string step;    // what one step is, for the table's heading
  int dimension = 2;
  // Rounds, halo bytes and reductions; seconds_per_cell is measured later.
  step_kind kind;
  // Estimated DRAM bytes per cell of a step (every array streamed once per loop,
  // neighbours' values from cache): the GPU's time per cell at a given bandwidth.
  double bytes_per_cell = 0;
  // The same per halo cell, for loops computed on halo cells too (with_halo()).
  double halo_bytes_per_cell = 0;
};

// What a step sends, counted from the halo plan's real rounds (every rank's, averaged):
// rounds a step, messages to each neighbour a round, bytes a sent cell a round.
struct traffic {
  double rounds = 0;
  double messages_per_round = 0;
  double bytes_per_cell = 0;
  bool counted = false;  // false: no rank had a neighbour (one rank)
};
traffic count_traffic(const scheme& s, const funcmesh::distributed_layout& layout, int steps);

// Throws funcmesh::error for another name.
scheme scheme_named(const std::string& family);

// The family's mesh with about `cells` cells (builtin_mesh: "airfoil" or "box3d-tet").
funcmesh::mesh family_mesh(const scheme& s, index_t cells);

// Seconds per step of the scheme on `layout` (collective over its communicator): `rounds`
// batches of `batch` steps after one untimed step, each batch's time the slowest rank's;
// the median batch, per step.
double seconds_per_step(const scheme& s, const funcmesh::distributed_layout& layout, int rounds,
                        int batch);

}  // namespace scaling
