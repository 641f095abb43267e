// Geometry by decomposition: 2-D cells into triangles and 3-D cells into tetrahedra from
// the cell's vertex average, quad faces into four triangles from the face's vertex
// average. Every face is split the same way from both sides, so closed cells have zero
// net area vector and the volumes add up to the domain's even for warped faces.
#include <funcmesh/partition/geometry.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include <funcmesh/core/error.hpp>

namespace funcmesh {

namespace {

using vec3 = std::array<double, 3>;

vec3 operator-(const vec3& a, const vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
vec3 operator+(const vec3& a, const vec3& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
vec3 operator*(double s, const vec3& a) { return {s * a[0], s * a[1], s * a[2]}; }
vec3 cross(const vec3& a, const vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const vec3& a, const vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
double cross2(const vec3& a, const vec3& b) { return a[0] * b[1] - a[1] * b[0]; }

const vec3& point(const mesh& m, index_t node) {
  return m.coordinates[static_cast<std::size_t>(node)];
}

template <class Nodes>
vec3 average(const mesh& m, const Nodes& nodes) {
  vec3 sum{0, 0, 0};
  for (index_t node : nodes) sum = sum + point(m, node);
  return (1.0 / static_cast<double>(nodes.size())) * sum;
}

// Calls visit(apex, a, b, c) for the tetrahedra (3-D) or visit(apex, a, b) for the
// triangles (2-D) the cell decomposes into; each has the cell's orientation.
template <class Visit>
void for_each_piece(const mesh& m, index_t c, Visit&& visit) {
  const cell_type type = m.cells.types[static_cast<std::size_t>(c)];
  const auto nodes = m.cells.nodes_of(c);
  const vec3 apex = average(m, nodes);
  for (int f = 0; f < face_count(type); ++f) {
    const auto local = face_nodes(type, f);
    if (local.size() == 2) {
      visit(apex, point(m, nodes[local[0]]), point(m, nodes[local[1]]), apex);
    } else if (local.size() == 3) {
      visit(apex, point(m, nodes[local[0]]), point(m, nodes[local[1]]), point(m, nodes[local[2]]));
    } else {
      vec3 centre{0, 0, 0};
      for (std::uint8_t k : local) centre = centre + point(m, nodes[k]);
      centre = (1.0 / static_cast<double>(local.size())) * centre;
      for (std::size_t k = 0; k < local.size(); ++k) {
        visit(apex, centre, point(m, nodes[local[k]]),
              point(m, nodes[local[(k + 1) % local.size()]]));
      }
    }
  }
}

// Signed volume (area in 2-D) of one piece from for_each_piece.
double piece_volume(int dimension, const vec3& apex, const vec3& a, const vec3& b, const vec3& c) {
  if (dimension == 2) return 0.5 * cross2(a - apex, b - apex);
  return dot(a - apex, cross(b - apex, c - apex)) / 6.0;
}

double signed_volume(const mesh& m, index_t c) {
  double volume = 0;
  for_each_piece(m, c, [&](const vec3& apex, const vec3& a, const vec3& b, const vec3& d) {
    volume += piece_volume(m.dimension, apex, a, b, d);
  });
  return volume;
}

// "mesh.msh: element 1234 (triangle, nodes 5 9 12) has area 0": the file, the cell by its
// tag and nodes, its measure (what a user can look up in the file or in Gmsh).
std::string describe(const mesh& m, index_t c, double volume) {
  std::ostringstream text;
  text << m.where() << m.describe_cell(c) << " has " << (m.dimension == 2 ? "area " : "volume ")
       << volume;
  return text.str();
}

// A quad is self-intersecting (a bow tie) when two or more corners turn against the
// polygon's orientation; a non-convex but simple quad has only one.
bool tangled_quad(const mesh& m, std::span<const index_t> nodes, double sign, double tolerance) {
  int against = 0;
  for (std::size_t k = 0; k < 4; ++k) {
    const vec3& prev = point(m, nodes[(k + 3) % 4]);
    const vec3& here = point(m, nodes[k]);
    const vec3& next = point(m, nodes[(k + 1) % 4]);
    if (sign * cross2(here - prev, next - here) < -tolerance) ++against;
  }
  return against >= 2;
}

// The node permutation that mirrors a cell (an involution, so it also undoes itself).
std::span<const std::uint8_t> mirror(cell_type type) {
  static constexpr std::uint8_t triangle[] = {0, 2, 1};
  static constexpr std::uint8_t quad[] = {0, 3, 2, 1};
  static constexpr std::uint8_t tetrahedron[] = {0, 2, 1, 3};
  static constexpr std::uint8_t hexahedron[] = {4, 5, 6, 7, 0, 1, 2, 3};
  static constexpr std::uint8_t prism[] = {3, 4, 5, 0, 1, 2};
  static constexpr std::uint8_t pyramid[] = {0, 3, 2, 1, 4};
  switch (type) {
    case cell_type::triangle:
      return triangle;
    case cell_type::quad:
      return quad;
    case cell_type::tetrahedron:
      return tetrahedron;
    case cell_type::hexahedron:
      return hexahedron;
    case cell_type::prism:
      return prism;
    case cell_type::pyramid:
      return pyramid;
    default:
      return {};
  }
}

void check_cell(const mesh& m, index_t c) {
  const cell_type type = m.cells.types[static_cast<std::size_t>(c)];
  const auto nodes = m.cells.nodes_of(c);
  if (dimension_of(type) != m.dimension || static_cast<int>(nodes.size()) != node_count(type)) {
    throw error("funcmesh::normalize_orientation: " + m.where() + m.cell_name(c) + " is a " +
                std::string(name_of(type)) + " with " + std::to_string(nodes.size()) +
                " nodes in a " + std::to_string(m.dimension) + "-D mesh");
  }
  for (index_t node : nodes) {
    if (node < 0 || node >= m.node_count()) {
      throw error("funcmesh::normalize_orientation: " + m.where() + m.cell_name(c) +
                  " references node index " + std::to_string(node) + " of " +
                  std::to_string(m.node_count()));
    }
  }
  // A repeated node collapses an edge or a face; a quad with one may still have an area,
  // so the volume test below does not catch it, and its zero-length face would later
  // give a zero normal.
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    for (std::size_t l = k + 1; l < nodes.size(); ++l) {
      if (nodes[k] == nodes[l]) {
        throw error("funcmesh::normalize_orientation: " + m.where() + m.describe_cell(c) +
                    " repeats " + m.node_name(nodes[k]) +
                    ": a degenerate cell (its corners must be distinct nodes)");
      }
    }
  }
}

}  // namespace

void normalize_orientation(mesh& m) {
  if (m.dimension != 2 && m.dimension != 3) {
    throw error("funcmesh::normalize_orientation: mesh dimension must be 2 or 3, got " +
                std::to_string(m.dimension));
  }
  if (m.cells.offsets.size() != m.cells.types.size() + 1 ||
      m.cells.ids.size() != m.cells.types.size() ||
      m.cells.offsets.back() != static_cast<index_t>(m.cells.nodes.size())) {
    throw error("funcmesh::normalize_orientation: inconsistent cell arrays");
  }
  double scale = 0;
  if (!m.coordinates.empty()) {
    vec3 low = m.coordinates.front(), high = low;
    for (const vec3& x : m.coordinates) {
      for (std::size_t d = 0; d < 3; ++d) {
        low[d] = std::min(low[d], x[d]);
        high[d] = std::max(high[d], x[d]);
      }
    }
    for (std::size_t d = 0; d < 3; ++d) scale = std::max(scale, high[d] - low[d]);
  }
  const double tolerance = 1e-12 * std::pow(scale, m.dimension);
  const double edge_tolerance = 1e-12 * scale * scale;
  for (index_t c = 0; c < m.cell_count(); ++c) {
    check_cell(m, c);
    const double volume = signed_volume(m, c);
    if (!(std::abs(volume) > tolerance)) {
      throw error("funcmesh::normalize_orientation: " + describe(m, c, volume) +
                  ": a degenerate cell (its " + (m.dimension == 2 ? "area" : "volume") +
                  " is at most 1e-12 of the bounding box's)");
    }
    const double sign = volume > 0 ? 1.0 : -1.0;
    const cell_type type = m.cells.types[static_cast<std::size_t>(c)];
    bool tangled = false;
    if (type == cell_type::quad) {
      tangled = tangled_quad(m, m.cells.nodes_of(c), sign, edge_tolerance);
    } else if (m.dimension == 3) {
      for_each_piece(m, c, [&](const vec3& apex, const vec3& a, const vec3& b, const vec3& d) {
        // Pieces of a valid cell are strictly positive: its vertex average is inside.
        if (sign * piece_volume(3, apex, a, b, d) <= tolerance) tangled = true;
      });
    }
    if (tangled) {
      throw error("funcmesh::normalize_orientation: " + describe(m, c, volume) +
                  ", but it is tangled: it folds over itself (its pieces do not all have "
                  "the same sign)");
    }
    if (volume < 0) {
      const auto order = mirror(type);
      const auto begin = static_cast<std::size_t>(m.cells.offsets[static_cast<std::size_t>(c)]);
      std::array<index_t, 8> old{};
      std::copy_n(m.cells.nodes.begin() + static_cast<std::ptrdiff_t>(begin), order.size(),
                  old.begin());
      for (std::size_t k = 0; k < order.size(); ++k) m.cells.nodes[begin + k] = old[order[k]];
    }
  }
}

cell_geometry compute_cell_geometry(const mesh& m) {
  cell_geometry g;
  const auto cells = static_cast<std::size_t>(m.cell_count());
  g.cell_volume.resize(cells);
  g.cell_centroid.resize(cells);
  for (index_t c = 0; c < m.cell_count(); ++c) {
    double volume = 0;
    vec3 moment{0, 0, 0};
    const double corners = m.dimension == 2 ? 3.0 : 4.0;
    for_each_piece(m, c, [&](const vec3& apex, const vec3& a, const vec3& b, const vec3& d) {
      const double piece = piece_volume(m.dimension, apex, a, b, d);
      volume += piece;
      // In 2-D d repeats the apex; the triangle's centroid is (apex + a + b) / 3.
      const vec3 sum = m.dimension == 2 ? apex + a + b : apex + a + b + d;
      moment = moment + (piece / corners) * sum;
    });
    if (!(volume > 0)) {
      throw error("funcmesh::compute_geometry: " + describe(m, c, volume) +
                  ": inverted or degenerate (call normalize_orientation first)");
    }
    g.cell_volume[static_cast<std::size_t>(c)] = volume;
    g.cell_centroid[static_cast<std::size_t>(c)] = (1.0 / volume) * moment;
  }
  return g;
}

mesh_geometry compute_geometry(const mesh& m, const mesh_faces& faces) {
  if (faces.cell_offsets.size() != static_cast<std::size_t>(m.cell_count()) + 1 ||
      faces.cells.size() != faces.types.size() || faces.offsets.size() != faces.types.size() + 1) {
    throw error("funcmesh::compute_geometry: the faces were not built from this mesh");
  }
  mesh_geometry g;
  static_cast<cell_geometry&>(g) = compute_cell_geometry(m);
  const auto face_total = static_cast<std::size_t>(faces.size());
  g.face_area.resize(face_total);
  g.face_normal.resize(face_total);
  g.face_centroid.resize(face_total);
  for (index_t f = 0; f < faces.size(); ++f) {
    const auto nodes = faces.nodes_of(f);
    for (index_t node : nodes) {
      if (node < 0 || node >= m.node_count()) {
        throw error("funcmesh::compute_geometry: the faces were not built from this mesh");
      }
    }
    vec3 area{0, 0, 0}, centroid{0, 0, 0};
    if (nodes.size() == 2) {
      const vec3 edge = point(m, nodes[1]) - point(m, nodes[0]);
      area = {edge[1], -edge[0], 0};  // to the right of a counter-clockwise edge: outward
      centroid = 0.5 * (point(m, nodes[0]) + point(m, nodes[1]));
    } else {
      const vec3 centre = average(m, nodes);
      double weight = 0;
      for (std::size_t k = 0; k < nodes.size(); ++k) {
        const vec3& a = point(m, nodes[k]);
        const vec3& b = point(m, nodes[(k + 1) % nodes.size()]);
        const vec3 piece = 0.5 * cross(a - centre, b - centre);
        const double size = std::sqrt(dot(piece, piece));
        area = area + piece;
        weight += size;
        centroid = centroid + (size / 3.0) * (centre + a + b);
      }
      centroid = weight > 0 ? (1.0 / weight) * centroid : centre;
    }
    const double size = std::sqrt(dot(area, area));
    if (!(size > 0)) {
      throw error("funcmesh::compute_geometry: " + m.where() + "the face of " + m.node_list(nodes) +
                  " of " + m.describe_cell(faces.cells[static_cast<std::size_t>(f)][0]) +
                  " has zero " + (m.dimension == 2 ? "length" : "area"));
    }
    g.face_area[static_cast<std::size_t>(f)] = size;
    g.face_normal[static_cast<std::size_t>(f)] = (1.0 / size) * area;
    g.face_centroid[static_cast<std::size_t>(f)] = centroid;
  }
  return g;
}

}  // namespace funcmesh
