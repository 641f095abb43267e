// Recursive coordinate bisection: a cheap, deterministic partitioner that needs only
// points, kept as an alternative to METIS and as the yardstick its edge cut is judged by.
#include <funcmesh/partition/partitioning.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include <funcmesh/core/error.hpp>

namespace funcmesh {

namespace {

using funcmesh::detail::at;

struct bisection {
  std::span<const std::array<double, 3>> points;
  std::span<const index_t> weights;
  index_t base;  // unweighted part sizes: base or base + 1 (the first `extra` parts)
  index_t extra;
  std::vector<int>& part;

  // Unweighted: the points parts [first, first + count) get in total, so that all sizes
  // come out base or base + 1 however the recursion splits.
  index_t share(index_t first, index_t count) const {
    const index_t plus = std::clamp<index_t>(extra - first, 0, count);
    return count * base + plus;
  }

  std::size_t longest_axis(std::span<const index_t> ids) const {
    std::array<double, 3> low{points[at(ids[0])]}, high{points[at(ids[0])]};
    for (index_t i : ids) {
      for (std::size_t d = 0; d < 3; ++d) {
        low[d] = std::min(low[d], points[at(i)][d]);
        high[d] = std::max(high[d], points[at(i)][d]);
      }
    }
    std::size_t axis = 0;
    for (std::size_t d = 1; d < 3; ++d) {
      if (high[d] - low[d] > high[axis] - low[axis]) axis = d;
    }
    return axis;
  }

  // Splits ids (the points of parts [first, first + count)) into two halves of parts.
  void split(std::span<index_t> ids, index_t first, index_t count) {
    if (count == 1) {
      for (index_t i : ids) part[at(i)] = static_cast<int>(first);
      return;
    }
    const index_t left_parts = count / 2;
    const std::size_t axis = longest_axis(ids);
    // Ties broken by index so that the result does not depend on the sort's internals.
    const auto before = [&](index_t a, index_t b) {
      const double pa = points[at(a)][axis], pb = points[at(b)][axis];
      return pa < pb || (pa == pb && a < b);
    };
    std::size_t cut = 0;
    if (weights.empty()) {
      cut = at(share(first, left_parts));
      std::nth_element(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(cut), ids.end(),
                       before);
    } else {
      std::sort(ids.begin(), ids.end(), before);
      double total = 0;
      for (index_t i : ids) total += static_cast<double>(weights[at(i)]);
      const double target = total * static_cast<double>(left_parts) / static_cast<double>(count);
      // The cut nearest the target weight, leaving each side at least one point per part.
      double prefix = 0;
      for (; cut < ids.size(); ++cut) {
        const double next = prefix + static_cast<double>(weights[at(ids[cut])]);
        if (next > target) {
          if (next - target < target - prefix) cut += 1;
          break;
        }
        prefix = next;
      }
      cut = std::clamp(cut, at(left_parts), ids.size() - at(count - left_parts));
    }
    split(ids.first(cut), first, left_parts);
    split(ids.subspan(cut), first + left_parts, count - left_parts);
  }
};

}  // namespace

std::vector<int> partition_points(std::span<const std::array<double, 3>> points, int parts,
                                  std::span<const index_t> weights) {
  const auto n = static_cast<index_t>(points.size());
  if (parts < 1) {
    throw error("funcmesh::partition_points: the number of parts must be at least 1, not " +
                std::to_string(parts));
  }
  if (parts > n) {
    throw error("funcmesh::partition_points: cannot split " + std::to_string(n) + " cells into " +
                std::to_string(parts) + " parts");
  }
  if (!weights.empty() && static_cast<index_t>(weights.size()) != n) {
    throw error("funcmesh::partition_points: there are " + std::to_string(weights.size()) +
                " weights for " + std::to_string(n) + " cells");
  }
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (weights[i] <= 0) {
      throw error("funcmesh::partition_points: cell " + std::to_string(i) + " has weight " +
                  std::to_string(weights[i]) + "; weights must be positive");
    }
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    for (double x : points[i]) {
      if (!std::isfinite(x)) {
        throw error("funcmesh::partition_points: cell " + std::to_string(i) +
                    " has a non-finite centroid coordinate");
      }
    }
  }
  std::vector<int> part(at(n), 0);
  if (parts == 1) return part;
  std::vector<index_t> ids(at(n));
  for (index_t i = 0; i < n; ++i) ids[at(i)] = i;
  bisection b{points, weights, n / parts, n % parts, part};
  b.split(ids, 0, parts);
  return part;
}

}  // namespace funcmesh
