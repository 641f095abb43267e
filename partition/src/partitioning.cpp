// METIS partitioning of a dual graph. METIS 5.1 trusts its input (an asymmetric graph or
// an out-of-range index corrupts memory), divides by zero for one part, may leave parts
// empty and is unsafe after an error, so everything is checked here, before and after.
#include <funcmesh/partition/partitioning.hpp>

#include <metis.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/hilbert.hpp>
#include <funcmesh/partition/metis_error.hpp>

namespace funcmesh {

namespace {

constexpr index_t idx_max = std::numeric_limits<idx_t>::max();

[[noreturn]] void fail(const std::string& reason) {
  throw error("funcmesh::partition_graph: " + reason);
}

using funcmesh::detail::at;

// The graph's adjacency with each vertex's list sorted (a copy only when some list is not).
std::vector<index_t> sorted_lists(const graph& g) {
  const index_t n = g.vertex_count();
  std::vector<index_t> lists;
  for (index_t v = 0; v < n; ++v) {
    const auto first = g.adjacency.begin() + g.offsets[at(v)];
    const auto last = g.adjacency.begin() + g.offsets[at(v) + 1];
    if (!std::is_sorted(first, last)) {
      lists = g.adjacency;
      for (index_t w = v; w < n; ++w) {
        std::sort(lists.begin() + g.offsets[at(w)], lists.begin() + g.offsets[at(w) + 1]);
      }
      break;
    }
  }
  return lists;
}

void check_graph(const graph& g) {
  if (g.offsets.empty() || g.offsets.front() != 0) fail("graph offsets must start with 0");
  const index_t n = g.vertex_count();
  for (index_t v = 0; v < n; ++v) {
    if (g.offsets[at(v) + 1] < g.offsets[at(v)]) {
      fail("graph offsets decrease at vertex " + std::to_string(v));
    }
  }
  if (g.offsets.back() != static_cast<index_t>(g.adjacency.size())) {
    fail("graph offsets end at " + std::to_string(g.offsets.back()) + " but there are " +
         std::to_string(g.adjacency.size()) + " adjacency entries");
  }
  if (n > idx_max || static_cast<index_t>(g.adjacency.size()) > idx_max) {
    fail("the graph has " + std::to_string(n) + " vertices and " +
         std::to_string(g.adjacency.size()) + " adjacency entries, more than METIS's " +
         std::to_string(metis_index_bits()) + "-bit idx_t holds");
  }
  const std::vector<index_t> copy = sorted_lists(g);
  const std::vector<index_t>& adj = copy.empty() ? g.adjacency : copy;
  for (index_t v = 0; v < n; ++v) {
    for (index_t k = g.offsets[at(v)]; k < g.offsets[at(v) + 1]; ++k) {
      const index_t u = adj[at(k)];
      // The message is built only on failure: this loop runs over every edge.
      const auto bad = [&](const std::string& reason) {
        fail("edge " + std::to_string(v) + " -> " + std::to_string(u) + reason);
      };
      if (u < 0 || u >= n) bad(" leaves the graph of " + std::to_string(n) + " vertices");
      if (u == v) bad(" is a self loop");
      if (k > g.offsets[at(v)] && adj[at(k) - 1] == u) bad(" appears twice");
      const auto first = adj.begin() + g.offsets[at(u)];
      const auto last = adj.begin() + g.offsets[at(u) + 1];
      if (!std::binary_search(first, last, v)) {
        bad(" has no reverse edge: the graph is not symmetric");
      }
    }
  }
}

void check_weights(const graph& g, const std::vector<index_t>& weights) {
  if (weights.empty()) return;
  if (static_cast<index_t>(weights.size()) != g.vertex_count()) {
    fail("there are " + std::to_string(weights.size()) + " cell weights for " +
         std::to_string(g.vertex_count()) + " cells");
  }
  index_t total = 0;
  for (std::size_t v = 0; v < weights.size(); ++v) {
    if (weights[v] <= 0) {
      fail("cell " + std::to_string(v) + " has weight " + std::to_string(weights[v]) +
           "; weights must be positive");
    }
    if (weights[v] > idx_max - total) {
      fail("the total cell weight exceeds METIS's " + std::to_string(metis_index_bits()) +
           "-bit idx_t");
    }
    total += weights[v];
  }
}

bool connected(const graph& g) {
  const index_t n = g.vertex_count();
  if (n == 0) return true;
  std::vector<char> seen(at(n), 0);
  std::vector<index_t> queue{0};
  seen[0] = 1;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    for (index_t u : g.neighbours(queue[head])) {
      if (!seen[at(u)]) {
        seen[at(u)] = 1;
        queue.push_back(u);
      }
    }
  }
  return static_cast<index_t>(queue.size()) == n;
}

void check_options(const graph& g, int parts, const partition_options& options) {
  if (options.method == partition_method::geometric ||
      options.method == partition_method::hilbert) {
    fail("the geometric and hilbert methods need coordinates: use partition_mesh");
  }
  if (parts < 1) fail("the number of parts must be at least 1, not " + std::to_string(parts));
  if (parts > g.vertex_count()) {
    fail("cannot split " + std::to_string(g.vertex_count()) + " cells into " +
         std::to_string(parts) + " parts");
  }
  if (!std::isfinite(options.imbalance) || options.imbalance < 1 || options.imbalance > 1000) {
    fail("imbalance " + std::to_string(options.imbalance) +
         " is not in [1, 1000] (largest part / mean part)");
  }
  if (options.seed < -1) fail("seed must be -1 (METIS's default) or >= 0");
  if (options.method == partition_method::metis_recursive) {
    if (options.objective == partition_objective::communication_volume) {
      fail(
          "METIS's recursive bisection minimises only the edge cut; use metis_kway for "
          "communication volume");
    }
    if (options.contiguous) fail("contiguous parts need metis_kway (METIS ignores it otherwise)");
  }
}

}  // namespace

std::vector<int> partition_graph(const graph& g, int parts, const partition_options& options) {
  check_graph(g);
  check_options(g, parts, options);
  check_weights(g, options.cell_weights);
  const index_t n = g.vertex_count();
  if (parts == 1) return std::vector<int>(at(n), 0);  // METIS divides by zero here
  if (options.contiguous && !connected(g)) {
    fail("contiguous parts were asked for, but the graph (mesh) is not connected");
  }

  std::vector<idx_t> offsets(g.offsets.begin(), g.offsets.end());
  std::vector<idx_t> adjacency(g.adjacency.begin(), g.adjacency.end());
  std::vector<idx_t> weights(options.cell_weights.begin(), options.cell_weights.end());
  idx_t vertices = static_cast<idx_t>(n), constraints = 1, nparts = parts, cut = 0;
  std::vector<idx_t> part(at(n), -1);
  // An edgeless graph still needs a valid pointer for METIS's adjacency.
  if (adjacency.empty()) adjacency.push_back(0);

  idx_t metis_options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(metis_options);
  metis_options[METIS_OPTION_NUMBERING] = 0;
  metis_options[METIS_OPTION_OBJTYPE] =
      options.objective == partition_objective::edge_cut ? METIS_OBJTYPE_CUT : METIS_OBJTYPE_VOL;
  metis_options[METIS_OPTION_UFACTOR] =
      static_cast<idx_t>(std::lround((options.imbalance - 1) * 1000));
  if (options.seed >= 0) metis_options[METIS_OPTION_SEED] = options.seed;
  if (options.method == partition_method::metis_kway) {
    metis_options[METIS_OPTION_CONTIG] = options.contiguous ? 1 : 0;
  }

  idx_t* vwgt = weights.empty() ? nullptr : weights.data();
  if (options.method == partition_method::metis_kway) {
    check_metis(METIS_PartGraphKway(&vertices, &constraints, offsets.data(), adjacency.data(), vwgt,
                                    nullptr, nullptr, &nparts, nullptr, nullptr, metis_options,
                                    &cut, part.data()),
                "METIS_PartGraphKway");
  } else {
    check_metis(METIS_PartGraphRecursive(&vertices, &constraints, offsets.data(), adjacency.data(),
                                         vwgt, nullptr, nullptr, &nparts, nullptr, nullptr,
                                         metis_options, &cut, part.data()),
                "METIS_PartGraphRecursive");
  }

  std::vector<int> result(at(n));
  std::vector<index_t> sizes(static_cast<std::size_t>(parts), 0);
  for (index_t v = 0; v < n; ++v) {
    const idx_t p = part[at(v)];
    if (p < 0 || p >= parts) {
      fail("METIS put cell " + std::to_string(v) + " in part " + std::to_string(p) +
           ", outside [0, " + std::to_string(parts) + ")");
    }
    result[at(v)] = static_cast<int>(p);
    ++sizes[static_cast<std::size_t>(p)];
  }
  const auto empty = std::count(sizes.begin(), sizes.end(), index_t{0});
  if (empty > 0) {
    fail("METIS left " + std::to_string(empty) + " of " + std::to_string(parts) + " parts empty (" +
         std::to_string(n) + " cells); ask for fewer parts");
  }
  return result;
}

std::vector<int> partition_mesh(const mesh& m, int parts, const partition_options& options) {
  if (options.method == partition_method::hilbert) {
    if (!options.cell_weights.empty()) {
      throw error("funcmesh::partition_mesh: the hilbert method takes no cell weights");
    }
    return partition_hilbert(m, parts);
  }
  if (options.method == partition_method::geometric) {
    if (options.cell_weights.size() != 0 &&
        static_cast<index_t>(options.cell_weights.size()) != m.cell_count()) {
      throw error("funcmesh::partition_mesh: there are " +
                  std::to_string(options.cell_weights.size()) + " cell weights for " +
                  std::to_string(m.cell_count()) + " cells");
    }
    std::vector<std::array<double, 3>> centroids(at(m.cell_count()), {0, 0, 0});
    for (index_t c = 0; c < m.cell_count(); ++c) {
      const auto nodes = m.cells.nodes_of(c);
      for (index_t node : nodes) {
        if (node < 0 || node >= m.node_count()) {
          throw error("funcmesh::partition_mesh: cell " + std::to_string(c) +
                      " references node index " + std::to_string(node) + ", but the mesh has " +
                      std::to_string(m.node_count()) + " nodes");
        }
        for (std::size_t d = 0; d < 3; ++d) centroids[at(c)][d] += m.coordinates[at(node)][d];
      }
      for (std::size_t d = 0; d < 3; ++d) {
        centroids[at(c)][d] /= static_cast<double>(nodes.empty() ? 1 : nodes.size());
      }
    }
    return partition_points(centroids, parts, options.cell_weights);
  }
  return partition_graph(dual_graph(m, options.by), parts, options);
}

}  // namespace funcmesh
