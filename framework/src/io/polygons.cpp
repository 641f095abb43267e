// Cells -> flat polygons: 2-D cells projected, 3-D cells cut by a plane (see polygons.hpp).
#include <funcmesh/io/polygons.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include <funcmesh/core/error.hpp>

namespace funcmesh::io {

void polygon_set::add(std::span<const std::array<double, 2>> polygon, std::int64_t from) {
  points.insert(points.end(), polygon.begin(), polygon.end());
  offsets.push_back(static_cast<std::int64_t>(points.size()));
  source.push_back(from);
}

namespace {

using edge = std::pair<std::uint8_t, std::uint8_t>;

// Edges in VTK's node numbering of each 3-D cell type.
std::span<const edge> edges_of(std::uint8_t type) {
  static constexpr edge tetra[] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
  static constexpr edge hexahedron[] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                                        {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  static constexpr edge wedge[] = {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5},
                                   {5, 3}, {0, 3}, {1, 4}, {2, 5}};
  static constexpr edge pyramid[] = {{0, 1}, {1, 2}, {2, 3}, {3, 0},
                                     {0, 4}, {1, 4}, {2, 4}, {3, 4}};
  switch (type) {
    case vtk_cell::tetra:
      return tetra;
    case vtk_cell::hexahedron:
      return hexahedron;
    case vtk_cell::wedge:
      return wedge;
    case vtk_cell::pyramid:
      return pyramid;
    default:
      return {};
  }
}

// The two drawing coordinates for a cut across `axis`.
std::pair<int, int> drawn_axes(int axis) {
  if (axis == 0) return {1, 2};
  if (axis == 1) return {0, 2};
  return {0, 1};
}

void cut(const unstructured_piece& piece, std::int64_t c, std::span<const edge> edges,
         const slice_plane& plane, std::vector<std::array<double, 2>>& scratch, polygon_set& out) {
  const auto nodes = piece.points_of(c);
  const auto [u, v] = drawn_axes(plane.axis);
  scratch.clear();
  for (const auto& [a, b] : edges) {
    const auto& pa = piece.points[static_cast<std::size_t>(nodes[a])];
    const auto& pb = piece.points[static_cast<std::size_t>(nodes[b])];
    const double da = pa[plane.axis] - plane.position;
    const double db = pb[plane.axis] - plane.position;
    if ((da >= 0) == (db >= 0)) continue;
    const double t = da / (da - db);
    const std::array<double, 2> p{pa[u] + t * (pb[u] - pa[u]), pa[v] + t * (pb[v] - pa[v])};
    // Several edges meet at a node on the plane: keep that point once.
    const bool seen = std::ranges::any_of(scratch, [&](const auto& q) {
      return std::abs(q[0] - p[0]) <= 1e-12 * (1 + std::abs(p[0])) &&
             std::abs(q[1] - p[1]) <= 1e-12 * (1 + std::abs(p[1]));
    });
    if (!seen) scratch.push_back(p);
  }
  if (scratch.size() < 3) return;
  double cx = 0, cy = 0;
  for (const auto& p : scratch) {
    cx += p[0];
    cy += p[1];
  }
  cx /= static_cast<double>(scratch.size());
  cy /= static_cast<double>(scratch.size());
  std::ranges::sort(scratch, {}, [&](const auto& p) { return std::atan2(p[1] - cy, p[0] - cx); });
  out.add(scratch, c);
}

}  // namespace

polygon_set cell_polygons(const unstructured_piece& piece,
                          const std::optional<slice_plane>& plane) {
  if (plane && (plane->axis < 0 || plane->axis > 2)) {
    throw error("funcmesh::io::cell_polygons: slice axis " + std::to_string(plane->axis) +
                " is not 0, 1 or 2");
  }
  polygon_set out;
  std::vector<std::array<double, 2>> scratch;
  for (std::int64_t c = 0; c < piece.cell_count(); ++c) {
    const std::uint8_t type = piece.types[static_cast<std::size_t>(c)];
    switch (type) {
      case vtk_cell::vertex:
      case vtk_cell::line:
        break;
      case vtk_cell::triangle:
      case vtk_cell::quad:
      case vtk_cell::polygon: {
        scratch.clear();
        for (std::int64_t n : piece.points_of(c)) {
          const auto& p = piece.points[static_cast<std::size_t>(n)];
          scratch.push_back({p[0], p[1]});
        }
        out.add(scratch, c);
        break;
      }
      default: {
        const auto edges = edges_of(type);
        if (edges.empty()) {
          throw error("funcmesh::io::cell_polygons: VTK cell type " + std::to_string(type) +
                      " is not supported");
        }
        if (!plane) {
          throw error("funcmesh::io::cell_polygons: 3-D cells need a slice plane");
        }
        cut(piece, c, edges, *plane, scratch, out);
      }
    }
  }
  return out;
}

}  // namespace funcmesh::io
