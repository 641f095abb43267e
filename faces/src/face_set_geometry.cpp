// face_set's geometry columns: each face's area, normal and (where stored) distance and
// centroid, computed from its nodes in one canonical order so every rank gets the same bits.
#include <funcmesh/faces/face_set.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include <funcmesh/partition/mesh_faces.hpp>

namespace funcmesh {

namespace {

using point = std::array<double, 3>;

point minus(const point& a, const point& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double norm(const point& a) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

struct face_shape {
  double area = 0;
  point normal{0, 0, 0};
  point centroid{0, 0, 0};
};

struct face_nodes_of {
  std::array<index_t, face_set::max_face_nodes> node{};
  std::size_t count = 0;
};

face_shape canonical_shape(const local_mesh& m, const face_nodes_of& nodes);

// `nodes` (local node ids) oriented out of the face's first cell, in one canonical sequence:
// from the lowest global node id, towards the lower of its two neighbours (for an edge,
// from the lower id to the higher), computed, then the normal negated where that reversed
// the given orientation (a negation is exact). Every rank gets the same bits, whichever
// of the face's cells it sees it from: a halo cell's outer face, whose other cell no rank
// here knows, has its owner's bits. Mirrors compute_geometry's formulas.
face_shape canonical_geometry(const local_mesh& m, face_nodes_of nodes) {
  const auto begin = nodes.node.begin();
  const auto end = begin + static_cast<std::ptrdiff_t>(nodes.count);
  auto global = [&](index_t node) { return m.global_node[static_cast<std::size_t>(node)]; };
  bool reversed = false;
  if (nodes.count > 2) {
    const auto lowest =
        std::min_element(begin, end, [&](index_t a, index_t b) { return global(a) < global(b); });
    std::rotate(begin, lowest, end);
    if (global(nodes.node[1]) > global(nodes.node[nodes.count - 1])) {
      std::reverse(begin + 1, end);
      reversed = true;
    }
  } else if (nodes.count == 2 && global(nodes.node[0]) > global(nodes.node[1])) {
    std::swap(nodes.node[0], nodes.node[1]);
    reversed = true;
  }
  face_shape g = canonical_shape(m, nodes);
  if (reversed) {
    for (double& n : g.normal) n = -n;
  }
  return g;
}

// The face's shape from its nodes in the order given (canonical_geometry's order).
face_shape canonical_shape(const local_mesh& m, const face_nodes_of& nodes) {
  auto p = [&](std::size_t k) {
    return m.cells.coordinates[static_cast<std::size_t>(nodes.node[k])];
  };
  face_shape g;
  if (nodes.count == 2) {  // an edge of a 2-D cell: right-hand normal out of the cell
    const point d = minus(p(1), p(0));
    g.area = norm(d);
    g.normal = {d[1] / g.area, -d[0] / g.area, 0};
    for (std::size_t k = 0; k < 3; ++k) g.centroid[k] = 0.5 * (p(0)[k] + p(1)[k]);
    return g;
  }
  const auto n = nodes.count;
  point centre{0, 0, 0};
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < 3; ++k) centre[k] += p(i)[k];
  }
  for (std::size_t k = 0; k < 3; ++k) centre[k] /= static_cast<double>(n);
  point area{0, 0, 0}, moment{0, 0, 0};
  double weight = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const point a = minus(p(i), centre), b = minus(p((i + 1) % n), centre);
    const point c{0.5 * (a[1] * b[2] - a[2] * b[1]), 0.5 * (a[2] * b[0] - a[0] * b[2]),
                  0.5 * (a[0] * b[1] - a[1] * b[0])};
    const double size = norm(c);
    for (std::size_t k = 0; k < 3; ++k) {
      area[k] += c[k];
      moment[k] += (size / 3.0) * (centre[k] + p(i)[k] + p((i + 1) % n)[k]);
    }
    weight += size;
  }
  g.area = norm(area);
  for (std::size_t k = 0; k < 3; ++k) {
    g.normal[k] = area[k] / g.area;
    g.centroid[k] = weight > 0 ? moment[k] / weight : centre[k];
  }
  return g;
}

// A column of doubles, written once on the host.
class double_column {
 public:
  explicit double_column(index_t n) : values_(n), out_(values_.overwrite()) {}
  double& operator[](index_t i) const { return out_[i]; }
  array<double> take() {
    out_.release();
    return std::move(values_);
  }

 private:
  array<double> values_;
  write_access<double> out_;
};

}  // namespace

// Faces are written in `all`'s node order, seen from its first cell: the lower local cell
// (build_faces meets each face first from it). The geometry is seen from face_cells_[l][0],
// the lower global id, so the nodes are reversed where the two differ.
void face_set::build_geometry(const local_mesh& m, const mesh_faces& all,
                              const std::vector<face_index>& kept) {
  // z is stored only where it can be non-zero: normals in 3-D, centroids off the z = 0 plane.
  const bool normal_z = m.cells.dimension == 3;
  const bool centroid_z = normal_z || std::ranges::any_of(m.cells.coordinates, [](const point& x) {
                            return x[2] != 0.0;
                          });
  const bool with_distance = stored_.distance, with_centroid = stored_.face_centroid;
  const index_t n = all_face_count_;  // the set's faces, then the halo cells' own
  auto sized = [&](bool wanted) { return wanted ? n : 0; };
  double_column area(n), nx(n), ny(n), nz(normal_z ? n : 0), distance(sized(with_distance)),
      cx(sized(with_centroid)), cy(sized(with_centroid)), cz(sized(with_centroid && centroid_z));
  const auto two_of = face_cells_.read();
  for (index_t f = 0; f < static_cast<index_t>(kept.size()); ++f) {  // all.types is gone
    const face_index l = kept[static_cast<std::size_t>(f)];
    if (l < 0) continue;
    const auto two = two_of[l];
    const auto span = all.nodes_of(f);  // at most max_face_nodes (checked by the caller)
    face_nodes_of nodes;
    nodes.count = span.size();
    std::ranges::copy(span, nodes.node.begin());
    if (two[1] >= 0 && two[0] > two[1]) {
      std::reverse(nodes.node.begin(),
                   nodes.node.begin() + static_cast<std::ptrdiff_t>(nodes.count));
    }
    const face_shape g = canonical_geometry(m, nodes);
    area[l] = g.area;
    nx[l] = g.normal[0];
    ny[l] = g.normal[1];
    if (normal_z) nz[l] = g.normal[2];
    if (with_distance) {
      const point& left = cell_centroids_[static_cast<std::size_t>(two[0])];
      // A halo cell's outer face (untagged, past the set's faces) leads to a cell this
      // part does not hold: its distance is unknown here, NaN, never a wrong number.
      const bool outer = two[1] == -1 && l >= face_count_;
      distance[l] = two[1] >= 0
                        ? norm(minus(cell_centroids_[static_cast<std::size_t>(two[1])], left))
                    : outer ? std::numeric_limits<double>::quiet_NaN()
                            : norm(minus(g.centroid, left));
    }
    if (with_centroid) {
      cx[l] = g.centroid[0];
      cy[l] = g.centroid[1];
      if (centroid_z) cz[l] = g.centroid[2];
    }
  }
  area_ = area.take();
  distance_ = distance.take();
  normal_ = {nx.take(), ny.take(), nz.take()};
  centroid_ = {cx.take(), cy.take(), cz.take()};
}

// The cells' centroids where kernels read them (the offsets in face_view): z only off the
// z = 0 plane, as the face centroids.
void face_set::store_cell_centroid_columns() {
  const auto n = static_cast<index_t>(cell_centroids_.size());
  const bool with_z =
      std::ranges::any_of(cell_centroids_, [](const point& x) { return x[2] != 0.0; });
  double_column x(n), y(n), z(with_z ? n : 0);
  for (index_t c = 0; c < n; ++c) {
    const point& p = cell_centroids_[static_cast<std::size_t>(c)];
    x[c] = p[0];
    y[c] = p[1];
    if (with_z) z[c] = p[2];
  }
  cell_centroid_ = {x.take(), y.take(), z.take()};
}

}  // namespace funcmesh
