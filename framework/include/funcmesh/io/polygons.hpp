// polygon_set: flat 2-D polygons made from a piece's cells, for rendering: 2-D cells
// (triangle, quad, polygon) project onto the x-y plane; 3-D cells are cut by an
// axis-aligned plane and the cut becomes a polygon.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <funcmesh/io/unstructured_piece.hpp>

namespace funcmesh::io {

struct polygon_set {
  std::vector<std::array<double, 2>> points;
  std::vector<std::int64_t> offsets{0};  // polygon p: points[offsets[p] .. offsets[p + 1])
  std::vector<std::int64_t> source;      // the piece cell polygon p comes from

  std::int64_t size() const { return static_cast<std::int64_t>(source.size()); }
  void add(std::span<const std::array<double, 2>> polygon, std::int64_t from);
};

// The plane x[axis] = position. The cut is drawn in the other two coordinates in
// increasing order: axis 2 (z) -> (x, y), axis 1 -> (x, z), axis 0 -> (y, z).
struct slice_plane {
  int axis = 2;
  double position = 0;
};

// One polygon per 2-D cell, and per 3-D cell the plane cuts. A cut: each of the cell's
// edges (from VTK's node order: tetra, hexahedron, wedge, pyramid) whose end points lie
// on different sides of the plane gives one point; a node exactly on the plane counts as
// above it, so a cell face lying in the plane is drawn once (by the cell below), and the
// points, less duplicates, are ordered by angle around their mean (a convex cut, which
// it is for convex cells). Throws funcmesh::error for a 3-D cell without a plane, an
// axis outside 0..2, or an unknown cell type; vertex and line cells are skipped.
polygon_set cell_polygons(const unstructured_piece& piece,
                          const std::optional<slice_plane>& plane = std::nullopt);

// The values of `cell_values` (one per piece cell) for each polygon.
template <class T>
std::vector<T> values_for(const polygon_set& polygons, std::span<const T> cell_values) {
  std::vector<T> out;
  out.reserve(polygons.source.size());
  for (std::int64_t c : polygons.source) out.push_back(cell_values[static_cast<std::size_t>(c)]);
  return out;
}

}  // namespace funcmesh::io
