// The agreed checks of a distributed_graph (graph_checks.hpp), in three stages, each agreed
// before the next relies on it: this rank's own arrays, then the ranks' facts side by side
// (one MPI_Allgather), then every edge's reverse (one MPI_Alltoallv of the cut edges).
#include "graph_checks.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>

#include <funcmesh/comm/mpi_error.hpp>

namespace funcmesh::detail {

namespace {

using std::to_string;

constexpr index_t index_limit = std::numeric_limits<index_t>::max();

// a + b, or index_limit where it would overflow (both are non-negative here).
index_t saturated_sum(index_t a, index_t b) { return a > index_limit - b ? index_limit : a + b; }

std::span<const index_t> neighbours(const distributed_graph& g, index_t v) {
  const auto begin = static_cast<std::size_t>(g.offsets[static_cast<std::size_t>(v)]);
  const auto end = static_cast<std::size_t>(g.offsets[static_cast<std::size_t>(v) + 1]);
  return std::span<const index_t>(g.adjacency).subspan(begin, end - begin);
}

// This rank's arrays and arguments alone; "" when all is well.
std::string local_problem(const distributed_graph& g, int parts, const partition_options& options,
                          index_t index_max) {
  const auto& offsets = g.offsets;
  if (offsets.empty() || offsets.front() != 0) return "offsets must start with 0";
  const auto edges = static_cast<index_t>(g.adjacency.size());
  if (offsets.back() != edges) {
    return "offsets end at " + to_string(offsets.back()) + " but adjacency holds " +
           to_string(edges) + " ids";
  }
  const index_t n = g.vertex_count();
  for (index_t v = 0; v < n; ++v) {
    if (offsets[static_cast<std::size_t>(v) + 1] < offsets[static_cast<std::size_t>(v)]) {
      return "offsets decrease after local vertex " + to_string(v);
    }
  }
  if (g.first_vertex < 0 || g.global_vertices < 0 || n > g.global_vertices - g.first_vertex) {
    return "this rank's vertices [" + to_string(g.first_vertex) + ", " +
           to_string(g.first_vertex + n) +
           ") are not within [0, global_vertices = " + to_string(g.global_vertices) + ")";
  }
  for (index_t v = 0; v < n; ++v) {
    const index_t global = g.first_vertex + v;
    index_t previous = -1;
    for (const index_t w : neighbours(g, v)) {
      if (w < 0 || w >= g.global_vertices) {
        return "vertex " + to_string(global) + " names neighbour " + to_string(w) +
               ", outside [0, " + to_string(g.global_vertices) + ")";
      }
      if (w == global) return "vertex " + to_string(global) + " names itself (a self loop)";
      if (w <= previous) {
        return "the neighbours of vertex " + to_string(global) +
               " are not sorted, or repeat one (" + to_string(w) + " after " + to_string(previous) +
               ")";
      }
      previous = w;
    }
  }
  if (parts < 1) return "parts must be at least 1, not " + to_string(parts);
  if (!std::isfinite(options.imbalance) || options.imbalance < 1) {
    return "options.imbalance must be a finite number >= 1, not " +
           std::to_string(options.imbalance);
  }
  const auto& weights = options.cell_weights;
  if (!weights.empty() && static_cast<index_t>(weights.size()) != n) {
    return "options.cell_weights holds " + to_string(weights.size()) + " weights for " +
           to_string(n) + " vertices on this rank";
  }
  for (std::size_t v = 0; v < weights.size(); ++v) {
    if (weights[v] < 1 || weights[v] > index_max) {
      return "the weight of vertex " + to_string(g.first_vertex + static_cast<index_t>(v)) +
             " is " + to_string(weights[v]) + ", outside [1, " + to_string(index_max) + "]";
    }
  }
  return {};
}

// One rank's facts, side by side with the others' after the MPI_Allgather.
enum fact { first, count, global, parts_fact, edges, weight_sum, seed, imbalance, fact_count };
using facts = std::array<index_t, fact_count>;

// What the ranks' facts say together; "" when all is well. Every rank computes it from the
// same gathered facts, so every rank finds the same problem.
std::string joint_problem(const std::vector<facts>& all, index_t index_max) {
  const facts& root = all.front();
  const index_t n = root[global];
  index_t next = 0, total_edges = 0, total_weight = 0;
  int weighted_rank = -1, unweighted_rank = -1;
  static constexpr std::array<std::pair<fact, const char*>, 4> alike = {{
      {global, "global_vertices"},
      {parts_fact, "parts"},
      {seed, "options.seed"},
      {imbalance, "options.imbalance"},
  }};
  for (std::size_t r = 0; r < all.size(); ++r) {
    const facts& f = all[r];
    for (const auto& [which, name] : alike) {
      if (f[which] != root[which]) {
        return std::string(name) + " differs between rank 0 and rank " + to_string(r) +
               " (every rank must pass the same)";
      }
    }
    if (f[first] != next) {
      return "rank " + to_string(r) + "'s vertices start at " + to_string(f[first]) + ", not at " +
             to_string(next) + (r == 0 ? "" : " where rank " + to_string(r - 1) + "'s end");
    }
    next += f[count];
    total_edges = saturated_sum(total_edges, f[edges]);
    if (f[weight_sum] >= 0) {
      total_weight = saturated_sum(total_weight, f[weight_sum]);
      if (weighted_rank < 0) weighted_rank = static_cast<int>(r);
    } else if (f[count] > 0 && unweighted_rank < 0) {
      unweighted_rank = static_cast<int>(r);
    }
  }
  if (next != n) {
    return "the ranks' vertices end at " + to_string(next) +
           ", not at global_vertices = " + to_string(n);
  }
  if (root[parts_fact] > n) {
    return "more parts (" + to_string(root[parts_fact]) + ") than vertices (" + to_string(n) + ")";
  }
  if (weighted_rank >= 0 && unweighted_rank >= 0) {
    return "rank " + to_string(weighted_rank) + " gives options.cell_weights and rank " +
           to_string(unweighted_rank) + " does not";
  }
  const auto too_large = [&](const char* what, index_t value) {
    return std::string(what) + " (" + to_string(value) +
           ") exceeds this library's index range (at most " + to_string(index_max) + ")";
  };
  if (n > index_max) return too_large("the number of vertices", n);
  if (total_edges > index_max) return too_large("the number of adjacency entries", total_edges);
  if (total_weight > index_max) return too_large("the total vertex weight", total_weight);
  return {};
}

// Every edge u-w this rank holds must be named by w too. Edges between two of this rank's
// vertices are looked up here; each cut edge is sent to w's owner, who looks it up.
std::string asymmetry(const mpi::communicator& comm, const distributed_graph& g,
                      const std::vector<index_t>& vertex_begin, const std::string& caller) {
  const MPI_Comm c = comm.get();
  const int size = comm.size();
  const index_t n = g.vertex_count();
  const index_t end = g.first_vertex + n;
  const auto names = [&](index_t local, index_t id) {
    const auto list = neighbours(g, local);
    return std::binary_search(list.begin(), list.end(), id);
  };
  const auto owner = [&](index_t id) {
    return static_cast<int>(std::upper_bound(vertex_begin.begin(), vertex_begin.end(), id) -
                            vertex_begin.begin()) -
           1;
  };
  const auto missing = [](index_t u, index_t w) {
    return "the graph is not symmetric: vertex " + to_string(u) + " names " + to_string(w) +
           " as a neighbour, but " + to_string(w) + " does not name " + to_string(u);
  };
  std::string problem;
  std::vector<index_t> send_count(static_cast<std::size_t>(size), 0);
  for (index_t v = 0; v < n; ++v) {
    for (const index_t w : neighbours(g, v)) {
      if (w >= g.first_vertex && w < end) {
        if (problem.empty() && !names(w - g.first_vertex, g.first_vertex + v)) {
          problem = missing(g.first_vertex + v, w);
        }
      } else {
        send_count[static_cast<std::size_t>(owner(w))] += 2;
      }
    }
  }
  // MPI's counts are ints: agree that this exchange fits them before making it.
  std::vector<int> send_int(send_count.size()), receive_int(send_count.size());
  index_t send_total = 0;
  for (std::size_t r = 0; r < send_count.size(); ++r) {
    send_int[r] = static_cast<int>(std::min<index_t>(send_count[r], INT_MAX));
    send_total += send_count[r];
  }
  check_mpi(MPI_Alltoall(send_int.data(), 1, MPI_INT, receive_int.data(), 1, MPI_INT, c),
            "MPI_Alltoall (distributed graph check)", c);
  index_t receive_total = 0;
  for (const int k : receive_int) receive_total += k;
  mpi::agree(comm, std::max(send_total, receive_total) > INT_MAX
                       ? caller + ": too many cut edges on this rank for one MPI_Alltoallv (" +
                             to_string(std::max(send_total, receive_total) / 2) + ")"
                       : std::string());
  std::vector<int> send_at(send_int.size() + 1, 0), receive_at(receive_int.size() + 1, 0);
  for (std::size_t r = 0; r < send_int.size(); ++r) {
    send_at[r + 1] = send_at[r] + send_int[r];
    receive_at[r + 1] = receive_at[r] + receive_int[r];
  }
  // Pairs (w, u): "u names w; does w name u?", for w's owner.
  std::vector<index_t> outgoing(static_cast<std::size_t>(send_total) + 1);
  std::vector<int> fill(send_at.begin(), send_at.end() - 1);
  for (index_t v = 0; v < n; ++v) {
    for (const index_t w : neighbours(g, v)) {
      if (w >= g.first_vertex && w < end) continue;
      int& at = fill[static_cast<std::size_t>(owner(w))];
      outgoing[static_cast<std::size_t>(at)] = w;
      outgoing[static_cast<std::size_t>(at) + 1] = g.first_vertex + v;
      at += 2;
    }
  }
  std::vector<index_t> incoming(static_cast<std::size_t>(receive_total) + 1);
  check_mpi(MPI_Alltoallv(outgoing.data(), send_int.data(), send_at.data(), MPI_INT64_T,
                          incoming.data(), receive_int.data(), receive_at.data(), MPI_INT64_T, c),
            "MPI_Alltoallv (distributed graph check)", c);
  for (index_t k = 0; problem.empty() && k < receive_total; k += 2) {
    const index_t w = incoming[static_cast<std::size_t>(k)];
    const index_t u = incoming[static_cast<std::size_t>(k) + 1];
    if (!names(w - g.first_vertex, u)) problem = missing(u, w);
  }
  return problem.empty() ? problem : caller + ": " + problem;
}

}  // namespace

distributed_graph_shape check_distributed_graph(const mpi::communicator& comm,
                                                const distributed_graph& graph, int parts,
                                                const partition_options& options, index_t index_max,
                                                std::string_view caller) {
  static_assert(sizeof(index_t) == sizeof(std::int64_t));
  const std::string name(caller);
  const MPI_Comm c = comm.get();
  const std::string local = local_problem(graph, parts, options, index_max);
  mpi::agree(comm, local.empty() ? local : name + ": " + local);

  index_t weight_total = options.cell_weights.empty() ? -1 : 0;
  for (const index_t w : options.cell_weights) weight_total = saturated_sum(weight_total, w);
  const facts mine = {graph.first_vertex,
                      graph.vertex_count(),
                      graph.global_vertices,
                      parts,
                      static_cast<index_t>(graph.adjacency.size()),
                      weight_total,
                      options.seed,
                      std::bit_cast<index_t>(options.imbalance)};
  std::vector<facts> all(static_cast<std::size_t>(comm.size()));
  check_mpi(
      MPI_Allgather(mine.data(), fact_count, MPI_INT64_T, all.data(), fact_count, MPI_INT64_T, c),
      "MPI_Allgather (distributed graph check)", c);
  const std::string joint = joint_problem(all, index_max);
  mpi::agree(comm, joint.empty() ? joint : name + ": " + joint);

  distributed_graph_shape shape;
  shape.vertex_begin.reserve(all.size() + 1);
  for (const facts& f : all) shape.vertex_begin.push_back(f[first]);
  shape.vertex_begin.push_back(graph.global_vertices);
  shape.weighted =
      std::any_of(all.begin(), all.end(), [](const facts& f) { return f[weight_sum] >= 0; });
  mpi::agree(comm, asymmetry(comm, graph, shape.vertex_begin, name));
  return shape;
}

}  // namespace funcmesh::detail
