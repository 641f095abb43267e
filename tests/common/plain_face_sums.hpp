// The face sums of a global mesh by a plain loop over its faces, indexed by global cell:
// the reference the face-loop suites (tests/faces without MPI, tests/comm's distributed
// ones) compare the gather and scatter forms with, written once.
#pragma once

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include <funcmesh/faces/face_set.hpp>
#include <funcmesh/partition/geometry.hpp>
#include <funcmesh/partition/mesh.hpp>
#include <funcmesh/partition/mesh_faces.hpp>

namespace face_cases {

namespace fm = funcmesh;

struct plain_face_sums {
  std::vector<double> u;          // field(centroid) per cell
  std::vector<double> sums;       // the face sums
  std::vector<double> perimeter;  // each cell's surface (area of its faces)
};

// u = field(cell centroid); each interior face adds interior(ul, ur, face) to its first
// cell and interior(ur, ul, face with the normal negated) to its second; each boundary
// face adds boundary(its group's name, u, face) to its cell.
template <class Field, class Interior, class Boundary>
plain_face_sums plain_loop(const fm::mesh& global, const Field& field, const Interior& interior,
                           const Boundary& boundary) {
  const fm::mesh_faces faces = fm::build_faces(global);
  const fm::mesh_geometry g = fm::compute_geometry(global, faces);
  const auto cells = static_cast<std::size_t>(global.cell_count());
  plain_face_sums result;
  result.u.resize(cells);
  for (std::size_t c = 0; c < cells; ++c) result.u[c] = field(g.cell_centroid[c]);
  result.sums.assign(cells, 0.0);
  result.perimeter.assign(cells, 0.0);
  const std::vector<double>& u = result.u;
  auto distance = [](const std::array<double, 3>& a, const std::array<double, 3>& b) {
    return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
  };
  for (fm::index_t f = 0; f < faces.size(); ++f) {
    const auto i = static_cast<std::size_t>(f);
    const auto l = static_cast<std::size_t>(faces.cells[i][0]);
    fm::face_view v;
    v.area = g.face_area[i];
    for (int k = 0; k < 3; ++k) v.normal[k] = g.face_normal[i][static_cast<std::size_t>(k)];
    result.perimeter[l] += v.area;
    if (faces.on_boundary(f)) {
      v.distance = distance(g.face_centroid[i], g.cell_centroid[l]);
      const std::string name = global.physical_name(faces.physical[i], global.dimension - 1);
      result.sums[l] += boundary(name, u[l], v);
      continue;
    }
    const auto r = static_cast<std::size_t>(faces.cells[i][1]);
    result.perimeter[r] += v.area;
    v.distance = distance(g.cell_centroid[r], g.cell_centroid[l]);
    result.sums[l] += interior(u[l], u[r], v);
    for (int k = 0; k < 3; ++k) v.normal[k] = -v.normal[k];
    result.sums[r] += interior(u[r], u[l], v);
  }
  return result;
}

}  // namespace face_cases
