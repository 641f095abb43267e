#include "scaling_model.hpp"

#include <algorithm>
#include <cmath>

namespace scaling {

part_shape shape_of(const funcmesh::local_mesh& m) {
  part_shape s;
  s.owned = m.owned_count;
  s.interior = m.interior_count;
  s.halo = m.halo_count();
  for (const funcmesh::neighbour_lists& n : m.neighbours) {
    s.neighbour_parts.push_back(n.part);
    s.send_cells.push_back(static_cast<index_t>(n.send.size()));
    s.receive_cells.push_back(static_cast<index_t>(n.receive.size()));
  }
  return s;
}

part_shape scaled(const part_shape& s, double factor, int dimension) {
  const double surface = std::pow(factor, (dimension - 1.0) / dimension);
  auto times = [](index_t n, double f) { return static_cast<index_t>(std::llround(n * f)); };
  part_shape out = s;
  out.owned = times(s.owned, factor);
  out.halo = times(s.halo, surface);
  // The cells next to the halo grow as the surface does.
  out.interior = out.owned - times(s.owned - s.interior, surface);
  for (auto& n : out.send_cells) n = times(n, surface);
  for (auto& n : out.receive_cells) n = times(n, surface);
  return out;
}

part_time project_part(const part_shape& part, std::size_t which, int parts, const step_kind& step,
                       const network& net) {
  part_time t;
  const double share = net.compute_share.empty() ? 1.0 : net.compute_share[which];
  t.compute = (static_cast<double>(part.owned) * step.seconds_per_cell +
               static_cast<double>(part.halo) * step.halo_seconds_per_cell) *
              share;
  // One round: each message costs its latency and its bytes at the link's rate; a link
  // sends and receives at once, so a message costs the larger of its two directions.
  double round = 0, slowest_message = 0, bytes_time = 0, latencies = 0;
  for (std::size_t k = 0; k < part.send_cells.size(); ++k) {
    const double latency =
        net.neighbour_latency.empty() ? net.latency : net.neighbour_latency[which][k];
    const double per_byte = net.neighbour_seconds_per_byte.empty()
                                ? 1.0 / net.bandwidth
                                : net.neighbour_seconds_per_byte[which][k];
    const double bytes = step.halo_bytes_per_cell *
                         static_cast<double>(std::max(part.send_cells[k], part.receive_cells[k]));
    // A round's messages to one neighbour (one since issue 41; one a field before) each
    // pay the latency; their bytes add up.
    const double latencies_here = step.messages_per_round * latency;
    slowest_message = std::max(slowest_message, latencies_here + bytes * per_byte);
    latencies = std::max(latencies, latencies_here);
    bytes_time += bytes * per_byte;
    round += latencies_here + bytes * per_byte;
  }
  // Overlapped neighbours still share the rank's link: the bytes add up, one latency.
  if (net.neighbours_overlap) round = std::max(slowest_message, latencies + bytes_time);
  // The split phase hides up to `hidden` of the round behind the interior cells of the
  // loop that reads the halo (the step's interior work shared among its rounds).
  const double interior =
      static_cast<double>(part.interior) * step.seconds_per_cell * share / std::max(step.rounds, 1);
  const double exposed = round - net.hidden * std::min(round, interior);
  t.exchange = step.rounds * exposed;
  if (parts > 1) {
    t.reduction = step.reductions * 2.0 * std::log2(static_cast<double>(parts)) * net.latency;
  }
  return t;
}

projection project(const std::vector<part_shape>& parts, int ranks, const step_kind& step,
                   const network& net) {
  projection p;
  double cells = 0;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const part_shape& s = parts[k];
    cells += static_cast<double>(s.owned);
    const part_time t = project_part(s, k, ranks, step, net);
    if (t.total() > p.slowest.total()) p.slowest = t;
    p.max_owned = std::max(p.max_owned, s.owned);
    p.max_halo = std::max(p.max_halo, s.halo);
    p.max_neighbours = std::max(p.max_neighbours, static_cast<int>(s.send_cells.size()));
    for (const index_t sent : s.send_cells) {
      p.max_message_bytes =
          std::max(p.max_message_bytes, step.halo_bytes_per_cell * static_cast<double>(sent));
    }
  }
  // The baseline: the mean part's cells on one rank with no neighbour, at full CPU.
  const double alone =
      cells / static_cast<double>(std::max<std::size_t>(parts.size(), 1)) * step.seconds_per_cell;
  p.efficiency = p.slowest.total() > 0 ? alone / p.slowest.total() : 0;
  return p;
}

}  // namespace scaling
