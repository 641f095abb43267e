// The weak-scaling model of bench/scaling: what a rank exchanges (its part's shape, from a
// real local mesh), what a step does (rounds, bytes, reductions, time per cell), and a
// network of fixed inputs; together they give a projected time per step and efficiency.
#pragma once

#include <string>
#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/partition/local_mesh.hpp>

namespace scaling {

using funcmesh::index_t;

// What one part exchanges: its owned and owned-interior cells, its halo, and per
// neighbour the cells it sends and receives each round (local_mesh::neighbours).
struct part_shape {
  index_t owned = 0;
  index_t interior = 0;
  index_t halo = 0;
  std::vector<int> neighbour_parts;
  std::vector<index_t> send_cells;     // per neighbour
  std::vector<index_t> receive_cells;  // per neighbour
};

part_shape shape_of(const funcmesh::local_mesh& m);

// A part `factor` times as large in a mesh of `dimension` dimensions: its cells times
// factor, its halo and messages (surfaces) times factor^((dimension - 1) / dimension), the
// same neighbours.
part_shape scaled(const part_shape& s, double factor, int dimension);

// One step of a scheme: `rounds` halo rounds of `halo_bytes_per_cell` each (the fields the
// step reads at neighbours), `reductions` global reductions per step on average, and the
// time one cell's share of the step takes on one rank (measured on a 1-part mesh, or
// bytes per cell over a memory bandwidth).
// The code's traffic (rounds, messages per neighbour a round, bytes a halo cell) is counted
// from its real rounds on a partitioned mesh (scaling_steps: count_traffic); halo work is
// the loops computed on halo cells too (with_halo(): Airfoil's adt).
struct step_kind {
  std::string name;
  int rounds = 1;
  double halo_bytes_per_cell = 8;
  double messages_per_round = 1;  // per neighbour: each message pays the latency
  double reductions = 0;
  double seconds_per_cell = 0;
  double halo_seconds_per_cell = 0;  // work per halo cell a step
};

// The network. Messages to different neighbours go one after the other unless
// `neighbours_overlap` (only where measured to overlap); `hidden` is the fraction of
// min(round, interior work) the split-phase assignment hides (bench/halo's
// overlap_hidden_fraction; 0: nothing hidden).
struct network {
  double latency = 2e-6;    // seconds per message
  double bandwidth = 25e9;  // bytes per second per rank, each direction
  bool neighbours_overlap = false;
  double hidden = 0;
  // Per part: the latency and bandwidth to each neighbour when they differ from the above
  // (the rehearsal cluster: ranks on one host reach each other through loopback), and how
  // many ranks share a CPU (their compute time is that many times longer). Empty: uniform.
  std::vector<std::vector<double>> neighbour_latency;
  std::vector<std::vector<double>> neighbour_seconds_per_byte;
  std::vector<double> compute_share;
};

// One part's projected step and where its time goes.
struct part_time {
  double compute = 0;    // owned (and halo-work) cells x seconds per cell (x the CPU share)
  double exchange = 0;   // the rounds' exposed time
  double reduction = 0;  // allreduces: 2 log2(P) latencies each
  double total() const { return compute + exchange + reduction; }
};

part_time project_part(const part_shape& part, std::size_t which, int parts, const step_kind& step,
                       const network& net);

// The slowest part's step (which sets every rank's pace) and the weak-scaling efficiency:
// the mean part's compute alone over that. `ranks` is the rank count whose reductions are
// projected: parts.size(), or more when the parts of a smaller partition stand for a
// larger one's (weak scaling at a fixed part size keeps the worst part's shape).
struct projection {
  part_time slowest;
  double efficiency = 0;
  index_t max_owned = 0, max_halo = 0;
  int max_neighbours = 0;
  double max_message_bytes = 0;  // the largest single message of a round
};

projection project(const std::vector<part_shape>& parts, int ranks, const step_kind& step,
                   const network& net);

}  // namespace scaling
