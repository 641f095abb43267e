// Partition quality on the dual graph. Per cell, the distinct other parts among its
// neighbours give both the communication volume and the halo size, so one pass suffices.
#include <funcmesh/partition/partition_metrics.hpp>

#include <algorithm>
#include <cstdio>
#include <string>

#include <funcmesh/core/error.hpp>

namespace funcmesh {

namespace {

using funcmesh::detail::at;

std::string fixed(double x, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, x);
  return text;
}

}  // namespace

partition_metrics measure_partition(const graph& g, std::span<const int> part, int parts) {
  const index_t n = g.vertex_count();
  if (parts < 1) {
    throw error("funcmesh::measure_partition: the number of parts must be at least 1, not " +
                std::to_string(parts));
  }
  if (static_cast<index_t>(part.size()) != n) {
    throw error("funcmesh::measure_partition: the partition has " + std::to_string(part.size()) +
                " entries for a graph of " + std::to_string(n) + " cells");
  }
  partition_metrics m;
  m.parts = parts;
  m.part_sizes.assign(static_cast<std::size_t>(parts), 0);
  for (index_t v = 0; v < n; ++v) {
    const int p = part[at(v)];
    if (p < 0 || p >= parts) {
      throw error("funcmesh::measure_partition: cell " + std::to_string(v) + " is in part " +
                  std::to_string(p) + ", outside [0, " + std::to_string(parts) + ")");
    }
    ++m.part_sizes[static_cast<std::size_t>(p)];
  }

  // Which parts touch which: each part's list of neighbour parts, deduplicated at the end.
  std::vector<std::vector<int>> touching(static_cast<std::size_t>(parts));
  std::vector<int> others;
  for (index_t v = 0; v < n; ++v) {
    const int p = part[at(v)];
    others.clear();
    for (index_t u : g.neighbours(v)) {
      const int q = part[at(u)];
      if (q == p) continue;
      if (u > v) ++m.edge_cut;
      others.push_back(q);
    }
    std::sort(others.begin(), others.end());
    others.erase(std::unique(others.begin(), others.end()), others.end());
    // v lies in the halo of each part in `others`, and is sent to each of them.
    m.communication_volume += static_cast<index_t>(others.size());
    auto& mine = touching[static_cast<std::size_t>(p)];
    mine.insert(mine.end(), others.begin(), others.end());
  }
  index_t neighbour_total = 0;
  for (auto& list : touching) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    m.max_neighbours = std::max(m.max_neighbours, static_cast<int>(list.size()));
    neighbour_total += static_cast<index_t>(list.size());
  }
  m.mean_neighbours = static_cast<double>(neighbour_total) / parts;
  if (n > 0) {
    const double mean = static_cast<double>(n) / parts;
    const index_t largest = *std::max_element(m.part_sizes.begin(), m.part_sizes.end());
    m.imbalance = static_cast<double>(largest) / mean;
    m.halo_to_owned = static_cast<double>(m.communication_volume) / static_cast<double>(n);
  }
  return m;
}

std::string describe(const partition_metrics& m) {
  index_t smallest = 0, largest = 0, cells = 0;
  if (!m.part_sizes.empty()) {
    smallest = *std::min_element(m.part_sizes.begin(), m.part_sizes.end());
    largest = *std::max_element(m.part_sizes.begin(), m.part_sizes.end());
  }
  for (index_t s : m.part_sizes) cells += s;
  const auto row = [](const std::string& name, const std::string& value) {
    std::string line = "  " + name;
    line.resize(26, ' ');
    return line + value + "\n";
  };
  std::string text = "partition metrics\n";
  text += row("parts", std::to_string(m.parts));
  text += row("cells", std::to_string(cells));
  text +=
      row("cells per part", "min " + std::to_string(smallest) + ", max " + std::to_string(largest));
  text += row("imbalance", fixed(m.imbalance, 4) + " (largest / mean)");
  text += row("edge cut", std::to_string(m.edge_cut));
  text += row("communication volume", std::to_string(m.communication_volume));
  text += row("halo / owned", fixed(m.halo_to_owned, 4));
  text += row("neighbours per part",
              "max " + std::to_string(m.max_neighbours) + ", mean " + fixed(m.mean_neighbours, 2));
  return text;
}

}  // namespace funcmesh
