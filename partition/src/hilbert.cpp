// Hilbert keys by Skilling's transpose algorithm ("Programming the Hilbert curve", 2004):
// undo the excess work of a Gray code on the axes, then interleave their bits.
#include <funcmesh/partition/hilbert.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/mesh_slab.hpp>

namespace funcmesh {

namespace {

std::uint32_t grid_coordinate(double x, double low, double high, int bits) {
  const double extent = high - low;
  if (!(extent > 0)) return 0;
  const double top = std::ldexp(1.0, bits) - 1;
  const double scaled = std::floor((x - low) / extent * top);
  return static_cast<std::uint32_t>(std::clamp(scaled, 0.0, top));
}

}  // namespace

std::uint64_t hilbert_key(const std::array<double, 3>& p, const bounding_box& box, int dimension) {
  const int n = dimension == 3 ? 3 : 2;
  const int bits = n == 3 ? 21 : 31;
  std::array<std::uint32_t, 3> x{};
  for (int d = 0; d < n; ++d) {
    const auto i = static_cast<std::size_t>(d);
    x[i] = grid_coordinate(p[i], box.low[i], box.high[i], bits);
  }
  const std::uint32_t top = std::uint32_t{1} << (bits - 1);
  for (std::uint32_t q = top; q > 1; q >>= 1) {  // inverse undo
    const std::uint32_t mask = q - 1;
    for (int d = 0; d < n; ++d) {
      const auto i = static_cast<std::size_t>(d);
      if (x[i] & q) {
        x[0] ^= mask;
      } else {
        const std::uint32_t t = (x[0] ^ x[i]) & mask;
        x[0] ^= t;
        x[i] ^= t;
      }
    }
  }
  for (int d = 1; d < n; ++d) x[static_cast<std::size_t>(d)] ^= x[static_cast<std::size_t>(d) - 1];
  std::uint32_t t = 0;
  for (std::uint32_t q = top; q > 1; q >>= 1) {
    if (x[static_cast<std::size_t>(n) - 1] & q) t ^= q - 1;
  }
  for (int d = 0; d < n; ++d) x[static_cast<std::size_t>(d)] ^= t;
  std::uint64_t key = 0;
  for (int b = bits - 1; b >= 0; --b) {
    for (int d = 0; d < n; ++d) key = (key << 1) | ((x[static_cast<std::size_t>(d)] >> b) & 1u);
  }
  return key;
}

std::array<double, 3> node_mean(std::span<const std::array<double, 3>> corners) {
  std::array<double, 3> sum{0, 0, 0};
  for (const auto& c : corners) {
    for (std::size_t d = 0; d < 3; ++d) sum[d] += c[d];
  }
  const double n = static_cast<double>(corners.empty() ? 1 : corners.size());
  for (double& s : sum) s /= n;
  return sum;
}

std::vector<int> partition_hilbert(const mesh& m, int parts) {
  const index_t cells = m.cell_count();
  if (parts < 1 || parts > cells) {
    throw error("funcmesh::partition_hilbert: cannot split " + std::to_string(cells) +
                " cells into " + std::to_string(parts) + " parts");
  }
  std::vector<std::array<double, 3>> centre(static_cast<std::size_t>(cells));
  std::vector<std::array<double, 3>> corners;
  bounding_box box{{HUGE_VAL, HUGE_VAL, HUGE_VAL}, {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL}};
  for (index_t c = 0; c < cells; ++c) {
    corners.clear();
    for (index_t node : m.cells.nodes_of(c)) {
      if (node < 0 || node >= m.node_count()) {
        throw error("funcmesh::partition_hilbert: " + m.where() + m.cell_name(c) +
                    " references node index " + std::to_string(node) + " of " +
                    std::to_string(m.node_count()));
      }
      corners.push_back(m.coordinates[static_cast<std::size_t>(node)]);
    }
    auto& p = centre[static_cast<std::size_t>(c)];
    p = node_mean(corners);
    for (std::size_t d = 0; d < 3; ++d) {
      box.low[d] = std::min(box.low[d], p[d]);
      box.high[d] = std::max(box.high[d], p[d]);
    }
  }
  std::vector<std::uint64_t> key(static_cast<std::size_t>(cells));
  for (std::size_t c = 0; c < key.size(); ++c) key[c] = hilbert_key(centre[c], box, m.dimension);
  std::vector<index_t> order(static_cast<std::size_t>(cells));
  std::iota(order.begin(), order.end(), index_t{0});
  std::sort(order.begin(), order.end(), [&](index_t a, index_t b) {
    const auto ka = key[static_cast<std::size_t>(a)], kb = key[static_cast<std::size_t>(b)];
    return ka != kb ? ka < kb : a < b;
  });
  std::vector<int> part(static_cast<std::size_t>(cells));
  int p = 0;
  for (index_t k = 0; k < cells; ++k) {
    while (share_begin(cells, parts, p + 1) <= k) ++p;
    part[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])] = p;
  }
  return part;
}

}  // namespace funcmesh
