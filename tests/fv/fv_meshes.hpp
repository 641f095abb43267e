// The meshes the fv suites run on (triangles, quads, tetrahedra, hexahedra, prisms; skewed
// and randomly perturbed), a prism mesh extruded from triangles, and local meshes of one
// part or each of two parts with halos, filled from a function of the cell centroid.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <funcmesh/expr/grid_function.hpp>
#include <funcmesh/faces/face_set.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/geometry.hpp>
#include <funcmesh/partition/local_mesh.hpp>
#include <funcmesh/partition/mesh.hpp>
#include <funcmesh/partition/mesh_faces.hpp>

namespace fv_cases {

namespace fm = funcmesh;

struct named_mesh {
  std::string name;
  fm::mesh mesh;
};

// Triangles turned into prisms, `layers` of height `dz`: each triangle (a, b, c) gives the
// wedge (a, b, c, a', b', c') in Gmsh's order; the caps and sides are boundary elements of
// the groups "bottom", "top" and "sides".
inline fm::mesh extruded(const fm::mesh& base, int layers, double dz) {
  fm::mesh m;
  m.dimension = 3;
  const auto n = static_cast<fm::index_t>(base.coordinates.size());
  for (int l = 0; l <= layers; ++l) {
    for (const auto& x : base.coordinates) m.coordinates.push_back({x[0], x[1], l * dz});
  }
  std::int64_t id = 0;
  for (int l = 0; l < layers; ++l) {
    for (fm::index_t c = 0; c < base.cells.size(); ++c) {
      const auto tri = base.cells.nodes_of(c);
      const std::array<fm::index_t, 6> wedge{tri[0] + l * n,       tri[1] + l * n,
                                             tri[2] + l * n,       tri[0] + (l + 1) * n,
                                             tri[1] + (l + 1) * n, tri[2] + (l + 1) * n};
      m.cells.add(fm::cell_type::prism, wedge, id++, 0);
    }
  }
  for (fm::index_t c = 0; c < base.cells.size(); ++c) {
    const auto tri = base.cells.nodes_of(c);
    const std::array<fm::index_t, 3> bottom{tri[0], tri[2], tri[1]};
    const std::array<fm::index_t, 3> top{tri[0] + layers * n, tri[1] + layers * n,
                                         tri[2] + layers * n};
    m.boundary.add(fm::cell_type::triangle, bottom, id++, 1);
    m.boundary.add(fm::cell_type::triangle, top, id++, 2);
  }
  for (fm::index_t e = 0; e < base.boundary.size(); ++e) {
    const auto edge = base.boundary.nodes_of(e);
    for (int l = 0; l < layers; ++l) {
      const std::array<fm::index_t, 4> side{edge[0] + l * n, edge[1] + l * n, edge[1] + (l + 1) * n,
                                            edge[0] + (l + 1) * n};
      m.boundary.add(fm::cell_type::quad, side, id++, 3);
    }
  }
  m.physical_groups = {{2, 1, "bottom"}, {2, 2, "top"}, {2, 3, "sides"}};
  m.source = "prisms extruded from " + base.source;
  return m;
}

// Every cell type, regular and randomly perturbed (skewed cells, faces off the centroids'
// midpoints).
inline std::vector<named_mesh> meshes(double perturbation) {
  fm::box_options o;
  o.perturbation = perturbation;
  fm::box_options flat = o;
  return {{"triangles", fm::box2d_tri(9, 8, o)},
          {"quads", fm::box2d_quad(10, 9, o)},
          {"tetrahedra", fm::box3d_tet(3, 3, 3, o)},
          {"hexahedra", fm::box3d_hex(5, 4, 4, o)},
          {"prisms", extruded(fm::box2d_tri(5, 4, flat), 3, 0.3)}};
}

// The whole mesh as one part, or part `which` of the cells left and right of x = 0.45.
inline fm::local_mesh part_of(const fm::mesh& global, int parts, int which) {
  const auto cells = static_cast<std::size_t>(global.cell_count());
  std::vector<int> part(cells, 0);
  if (parts == 2) {
    const fm::mesh_geometry g = fm::compute_geometry(global, fm::build_faces(global));
    for (std::size_t c = 0; c < cells; ++c) part[c] = g.cell_centroid[c][0] < 0.45 ? 0 : 1;
  }
  return fm::build_local_mesh(global, part, parts, which);
}

// f at each local cell's centroid (owned and halo).
template <class T>
fm::grid_function<T> sampled(const fm::face_set& faces,
                             const std::function<T(const std::array<double, 3>&)>& f,
                             const char* name) {
  fm::grid_function<T> u(faces.owned_count(), faces.cell_count() - faces.owned_count(), name);
  auto w = u.write();
  for (fm::index_t c = 0; c < faces.cell_count(); ++c) {
    w[c] = f(faces.cell_centroids()[static_cast<std::size_t>(c)]);
  }
  return u;
}

template <class T>
std::vector<std::uint64_t> bits_of(const std::vector<T>& values) {
  std::vector<std::uint64_t> result(values.size() * sizeof(T) / 8);
  std::memcpy(result.data(), values.data(), result.size() * 8);
  return result;
}

}  // namespace fv_cases
