// Faces and geometry: shared faces, closed cells, outward normals, boundary tags, and the
// orientation normalisation (fixing inverted cells, rejecting degenerate and tangled ones).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/geometry.hpp>
#include <funcmesh/partition/mesh_faces.hpp>

namespace funcmesh::testing {

namespace {

using vec3 = std::array<double, 3>;

mesh all_kinds(int which) {
  box_options options;
  options.perturbation = 0.2;
  options.lengths = {1.5, 1.0, 0.7};
  switch (which) {
    case 0:
      return box2d_tri(4, 3, options);
    case 1:
      return box2d_quad(4, 3, options);
    case 2:
      return box3d_hex(3, 4, 3, options);
    default:
      return box3d_tet(3, 4, 3, options);
  }
}

mesh single(int dimension, cell_type type, std::vector<vec3> points) {
  mesh m;
  m.dimension = dimension;
  m.coordinates = std::move(points);
  for (std::size_t v = 0; v < m.coordinates.size(); ++v)
    m.node_ids.push_back(static_cast<std::int64_t>(v) + 1);
  std::vector<index_t> nodes;
  for (index_t v = 0; v < static_cast<index_t>(m.coordinates.size()); ++v) nodes.push_back(v);
  m.cells.add(type, nodes, 42, 0);
  return m;
}

std::string thrown(mesh m) {
  try {
    normalize_orientation(m);
  } catch (const error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(geometry, faces_closed_cells_and_outward_normals) {
  for (int which = 0; which < 4; ++which) {
    const mesh m = all_kinds(which);
    const mesh_faces faces = build_faces(m);
    const mesh_geometry g = compute_geometry(m, faces);
    // Every cell's faces point back at it; every interior face has two distinct cells.
    for (index_t c = 0; c < m.cell_count(); ++c) {
      vec3 sum{0, 0, 0};
      double scale = 0;
      for (index_t f : faces.faces_of(c)) {
        const auto& cells = faces.cells[static_cast<std::size_t>(f)];
        ASSERT_TRUE(cells[0] == c || cells[1] == c);
        const double sign = cells[0] == c ? 1.0 : -1.0;
        const double area = g.face_area[static_cast<std::size_t>(f)];
        const vec3& n = g.face_normal[static_cast<std::size_t>(f)];
        for (std::size_t d = 0; d < 3; ++d) sum[d] += sign * area * n[d];
        scale += area;
        // Outward from this cell by geometry.
        const vec3& fc = g.face_centroid[static_cast<std::size_t>(f)];
        const vec3& cc = g.cell_centroid[static_cast<std::size_t>(c)];
        double out = 0;
        for (std::size_t d = 0; d < 3; ++d) out += (fc[d] - cc[d]) * n[d];
        EXPECT_GT(sign * out, 0) << "cell " << c << " face " << f;
      }
      for (std::size_t d = 0; d < 3; ++d) EXPECT_NEAR(sum[d], 0, 1e-14 * scale) << which;
    }
    for (index_t f = 0; f < faces.size(); ++f) {
      const auto& cells = faces.cells[static_cast<std::size_t>(f)];
      if (!faces.on_boundary(f)) {
        EXPECT_NE(cells[0], cells[1]);
      }
      const vec3& n = g.face_normal[static_cast<std::size_t>(f)];
      EXPECT_NEAR(n[0] * n[0] + n[1] * n[1] + n[2] * n[2], 1.0, 1e-14);
      if (m.dimension == 2) {
        EXPECT_EQ(n[2], 0.0);
      }
    }
  }
}

TEST(geometry, boundary_faces_carry_their_tags_with_matching_normals) {
  for (int which = 0; which < 4; ++which) {
    const mesh m = all_kinds(which);
    const mesh_faces faces = build_faces(m);
    const mesh_geometry g = compute_geometry(m, faces);
    const char* names[] = {"left", "right", "front", "back", "bottom", "top"};
    const char* names2[] = {"left", "right", "bottom", "top"};
    index_t boundary = 0;
    for (index_t f = 0; f < faces.size(); ++f) {
      const int id = faces.physical[static_cast<std::size_t>(f)];
      if (!faces.on_boundary(f)) {
        EXPECT_EQ(id, 0);
        continue;
      }
      ++boundary;
      ASSERT_GT(id, 0);
      const std::string name = m.physical_name(id, m.dimension - 1);
      const std::string expected = m.dimension == 2 ? names2[id - 1] : names[id - 1];
      EXPECT_EQ(name, expected);
      // left/right: x, front/back: y, bottom/top: z (2-D: bottom/top: y).
      const int axis = (id - 1) / 2;
      const double direction = (id % 2 == 1) ? -1.0 : 1.0;
      const vec3& n = g.face_normal[static_cast<std::size_t>(f)];
      EXPECT_NEAR(n[static_cast<std::size_t>(axis)], direction, 1e-14) << name;
    }
    EXPECT_EQ(boundary, m.boundary.size());
  }
}

TEST(geometry, quad_face_geometry_handles_non_planar_faces) {
  box_options options;
  options.perturbation = 0.2;
  const mesh m = box3d_hex(4, 4, 4, options);
  const mesh_geometry g = compute_geometry(m, build_faces(m));
  double volume = 0;
  for (double v : g.cell_volume) volume += v;
  EXPECT_NEAR(volume, 1.0, 1e-12);
}

TEST(geometry, orientation_fixes_clockwise_and_inverted_cells) {
  // Clockwise triangle and quad.
  mesh tri = single(2, cell_type::triangle, {{0, 0, 0}, {0, 1, 0}, {1, 0, 0}});
  normalize_orientation(tri);
  EXPECT_EQ(tri.cells.nodes, (std::vector<index_t>{0, 2, 1}));
  mesh quad = single(2, cell_type::quad, {{0, 0, 0}, {0, 1, 0}, {1, 1, 0}, {1, 0, 0}});
  normalize_orientation(quad);
  EXPECT_EQ(quad.cells.nodes, (std::vector<index_t>{0, 3, 2, 1}));
  EXPECT_NEAR(compute_geometry(quad, build_faces(quad)).cell_volume[0], 1.0, 1e-15);
  // Inverted tetrahedron and hexahedron (top and bottom swapped).
  mesh tet = single(3, cell_type::tetrahedron, {{0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {0, 0, 1}});
  normalize_orientation(tet);
  EXPECT_NEAR(compute_geometry(tet, build_faces(tet)).cell_volume[0], 1.0 / 6, 1e-15);
  mesh hex = single(
      3, cell_type::hexahedron,
      {{0, 0, 1}, {2, 0, 1}, {2, 1, 1}, {0, 1, 1}, {0, 0, 0}, {2, 0, 0}, {2, 1, 0}, {0, 1, 0}});
  normalize_orientation(hex);
  EXPECT_EQ(hex.cells.nodes, (std::vector<index_t>{4, 5, 6, 7, 0, 1, 2, 3}));
  const mesh_geometry g = compute_geometry(hex, build_faces(hex));
  EXPECT_NEAR(g.cell_volume[0], 2.0, 1e-15);
  EXPECT_NEAR(g.cell_centroid[0][0], 1.0, 1e-15);
  // Inverted prism and pyramid: fixed, and their faces close.
  for (bool pyramid : {false, true}) {
    mesh cell = pyramid
                    ? single(3, cell_type::pyramid,
                             {{0, 0, 0}, {0, 1, 0}, {1, 1, 0}, {1, 0, 0}, {0.5, 0.5, 1}})
                    : single(3, cell_type::prism,
                             {{0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {0, 0, 2}, {0, 1, 2}, {1, 0, 2}});
    normalize_orientation(cell);
    const mesh_faces faces = build_faces(cell);
    const mesh_geometry cg = compute_geometry(cell, faces);
    EXPECT_NEAR(cg.cell_volume[0], pyramid ? 1.0 / 3 : 1.0, 1e-15);
    vec3 sum{0, 0, 0};
    for (index_t f = 0; f < faces.size(); ++f) {
      for (std::size_t d = 0; d < 3; ++d) {
        sum[d] += cg.face_area[static_cast<std::size_t>(f)] *
                  cg.face_normal[static_cast<std::size_t>(f)][d];
      }
    }
    for (std::size_t d = 0; d < 3; ++d) EXPECT_NEAR(sum[d], 0, 1e-14);
  }
  // A positively oriented cell is left alone; a non-convex (dart) quad is valid.
  mesh dart = single(2, cell_type::quad, {{0, 0, 0}, {3, 1, 0}, {0, 2, 0}, {2, 1, 0}});
  EXPECT_EQ(thrown(dart), "");
}

TEST(geometry, orientation_rejects_degenerate_and_tangled_cells) {
  const std::string flat =
      thrown(single(3, cell_type::tetrahedron, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}));
  EXPECT_NE(flat.find("cell 42"), std::string::npos) << flat;
  EXPECT_NE(flat.find("degenerate"), std::string::npos) << flat;
  const std::string line =
      thrown(single(2, cell_type::triangle, {{0, 0, 0}, {1, 1, 0}, {2, 2, 0}}));
  EXPECT_NE(line.find("degenerate"), std::string::npos) << line;
  // A bow-tie quad whose halves have different areas, so the total is not zero.
  const std::string bowtie =
      thrown(single(2, cell_type::quad, {{0, 0, 0}, {2, 2, 0}, {2, 0, 0}, {0, 1, 0}}));
  EXPECT_NE(bowtie.find("tangled"), std::string::npos) << bowtie;
  EXPECT_NE(bowtie.find("cell 42"), std::string::npos) << bowtie;
  // A hexahedron whose top face is turned half way round: its pieces have mixed signs.
  const std::string twisted = thrown(single(3, cell_type::hexahedron,
                                            {{0, 0, 0},
                                             {1, 0, 0},
                                             {1, 1, 0},
                                             {0, 1, 0},
                                             {1, 1, 0.3},
                                             {0, 1, 0.3},
                                             {0, 0, 0.3},
                                             {1, 0, 0.3}}));
  EXPECT_NE(twisted.find("cell 42"), std::string::npos) << twisted;
  EXPECT_NE(twisted.find("tangled"), std::string::npos) << twisted;
  // A unit cube whose corner (1, 1, 1) is pushed through the bottom.
  const std::string folded = thrown(single(3, cell_type::hexahedron,
                                           {{0, 0, 0},
                                            {1, 0, 0},
                                            {1, 1, 0},
                                            {0, 1, 0},
                                            {0, 0, 1},
                                            {1, 0, 1},
                                            {0.2, 0.2, -0.5},
                                            {0, 1, 1}}));
  EXPECT_NE(folded.find("cell 42"), std::string::npos) << folded;
  EXPECT_NE(folded.find("tangled"), std::string::npos) << folded;
}

TEST(geometry, faces_reject_non_manifold_meshes) {
  // Three triangles on the edge 0-1.
  mesh m;
  m.dimension = 2;
  m.coordinates = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {1, 1, 0}};
  m.cells.add(cell_type::triangle, std::vector<index_t>{0, 1, 2}, 42, 0);
  m.cells.add(cell_type::triangle, std::vector<index_t>{0, 3, 1}, 43, 0);
  m.cells.add(cell_type::triangle, std::vector<index_t>{0, 1, 4}, 44, 0);
  try {
    build_faces(m);
    FAIL();
  } catch (const error& e) {
    const std::string message = e.what();
    // The cells by their ids and the face by its nodes (indices: this mesh has no tags).
    EXPECT_NE(message.find("the face of node indices 0 1 is shared by cells 42, 43 and 44"),
              std::string::npos)
        << message;
  }
  mesh bad = single(2, cell_type::triangle, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
  bad.cells.nodes[1] = 7;
  EXPECT_THROW(build_faces(bad), error);
  EXPECT_THROW(normalize_orientation(bad), error);
}

}  // namespace funcmesh::testing
