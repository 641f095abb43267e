// Built-in box meshes on a structured grid of nodes (x fastest). Tetrahedra follow the
// Kuhn split, whose face diagonals always join a face's lowest and highest corner, so
// neighbouring hexahedra agree on them and the mesh is conforming. Every row of the node,
// cell and boundary arrays is computed from its index (box_rows), so that one share of
// the rows (box_slab.cpp) equals the same rows of the whole mesh, bit for bit.
#include <funcmesh/partition/builtin_meshes.hpp>

#include <algorithm>
#include <cmath>
#include <span>
#include <string>

#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/airfoil_grid.hpp>

#include "box_rows.hpp"

namespace funcmesh {

namespace detail {

namespace {

index_t multiply(index_t a, index_t b) {
  index_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) {
    throw error("funcmesh::builtin mesh: the requested size overflows the 64-bit index");
  }
  return product;
}

index_t add(index_t a, index_t b) {
  index_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) {
    throw error("funcmesh::builtin mesh: the requested size overflows the 64-bit index");
  }
  return sum;
}

// A hash of (seed, node, coordinate) to [-1, 1): the perturbation does not depend on the
// standard library's random distributions, so it is the same on every platform.
double noise(std::uint64_t seed, index_t node, int coordinate) {
  auto mix = [](std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
  };
  const std::uint64_t h = mix(
      seed ^ mix(static_cast<std::uint64_t>(node) * 3 + static_cast<std::uint64_t>(coordinate)));
  return static_cast<double>(h >> 11) * 0x1.0p-52 - 1.0;
}

void check_options(const box_options& options, int dim) {
  for (int d = 0; d < dim; ++d) {
    const double length = options.lengths[static_cast<std::size_t>(d)];
    const double origin = options.origin[static_cast<std::size_t>(d)];
    if (!(length > 0) || !std::isfinite(length) || !std::isfinite(origin)) {
      throw error("funcmesh::builtin mesh: box lengths must be positive and finite, origin finite");
    }
  }
  if (!(options.perturbation >= 0 && options.perturbation <= 0.2)) {
    throw error(
        "funcmesh::builtin mesh: perturbation must be in [0, 0.2] (a fraction of the "
        "smallest cell size), got " +
        std::to_string(options.perturbation));
  }
}

// One element: its type and nodes (the first `size` of them).
struct row {
  cell_type type;
  std::size_t size;
  std::array<index_t, 8> nodes;
  std::span<const index_t> span() const { return {nodes.data(), size}; }
};

// Sub-cell `sub` of the hexahedron (quad in 2-D) with corners c. Kuhn's six tetrahedra:
// paths from corner 0 to corner 7 along the axes in every order; odd permutations swap
// two nodes to stay positively oriented. Triangles: the quad split along c0-c2.
row sub_cell(box_kind what, const std::array<index_t, 8>& c, index_t sub) {
  switch (what) {
    case box_kind::tri:
      return sub == 0 ? row{cell_type::triangle, 3, {c[0], c[1], c[2]}}
                      : row{cell_type::triangle, 3, {c[0], c[2], c[3]}};
    case box_kind::quad:
      return {cell_type::quad, 4, {c[0], c[1], c[2], c[3]}};
    case box_kind::hex:
      return {cell_type::hexahedron, 8, c};
    case box_kind::tet:
      break;
  }
  // Corner with bits (x, y, z) -> its Gmsh hexahedron position.
  static constexpr std::array<int, 8> position{0, 1, 3, 2, 4, 5, 7, 6};
  static constexpr std::array<std::array<int, 3>, 6> orders{
      {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {1, 0, 2}, {2, 1, 0}}};
  const auto& order = orders[static_cast<std::size_t>(sub)];
  const int b1 = 1 << order[0];
  const int b2 = b1 | (1 << order[1]);
  const index_t c0 = c[0], c3 = c[6];
  const index_t c1 = c[static_cast<std::size_t>(position[static_cast<std::size_t>(b1)])];
  const index_t c2 = c[static_cast<std::size_t>(position[static_cast<std::size_t>(b2)])];
  return sub < 3 ? row{cell_type::tetrahedron, 4, {c0, c1, c2, c3}}
                 : row{cell_type::tetrahedron, 4, {c0, c2, c1, c3}};
}

// Triangle `sub` of a boundary quad (outward) split along the diagonal from its lowest
// node (the face's lowest corner) to the opposite one, as the Kuhn split does.
row split_quad(const std::array<index_t, 4>& q, index_t sub) {
  std::size_t low = 0;
  for (std::size_t a = 1; a < 4; ++a) {
    if (q[a] < q[low]) low = a;
  }
  const index_t a = q[low], b = q[(low + 1) % 4], c = q[(low + 2) % 4], d = q[(low + 3) % 4];
  return sub == 0 ? row{cell_type::triangle, 3, {a, b, c}} : row{cell_type::triangle, 3, {a, c, d}};
}

// 3-D boundary sides in the order of their tags: the hexahedron face (cell_type.cpp's
// table) and the cells along it.
struct side {
  int face, axis;
  bool high;
};
constexpr std::array<side, 6> sides{
    {{5, 0, false}, {3, 0, true}, {2, 1, false}, {4, 1, true}, {0, 2, false}, {1, 2, true}}};

// The in-plane axes (u fastest) of a side normal to `axis`.
std::size_t axis_u(std::size_t axis) { return axis == 0 ? 1 : 0; }
std::size_t axis_v(std::size_t axis) { return axis == 2 ? 1 : 2; }

}  // namespace

box_rows::box_rows(box_kind what, std::array<index_t, 3> n, const box_options& options)
    : what_(what),
      dim_(what == box_kind::tri || what == box_kind::quad ? 2 : 3),
      n_(n),
      options_(options),
      per_hex_(what == box_kind::tri   ? 2
               : what == box_kind::tet ? 6
                                       : 1),
      nodes_each_(what == box_kind::tri                             ? 3
                  : what == box_kind::quad || what == box_kind::tet ? 4
                                                                    : 8) {
  if (dim_ == 2) n_[2] = 1;
  for (const index_t cells : n_) {
    if (cells <= 0) {
      throw error("funcmesh::builtin mesh: cells per direction must be positive, got " +
                  std::to_string(cells));
    }
  }
  check_options(options, dim_);
  cells_ = multiply(multiply(multiply(n_[0], n_[1]), n_[2]), per_hex_);
  multiply(cells_, nodes_each_);  // the connectivity's length
  nodes_ = multiply(add(n_[0], 1), add(n_[1], 1));
  if (dim_ == 3) nodes_ = multiply(nodes_, add(n_[2], 1));
  if (dim_ == 2) {
    boundary_ = multiply(2, add(n_[0], n_[1]));
  } else {
    for (std::size_t s = 0; s < sides.size(); ++s) {
      const auto axis = static_cast<std::size_t>(sides[s].axis);
      side_rows_[s] =
          multiply(multiply(n_[axis_u(axis)], n_[axis_v(axis)]), what == box_kind::tet ? 2 : 1);
      boundary_ = add(boundary_, side_rows_[s]);
    }
  }
}

std::array<index_t, 8> box_rows::corners(index_t i, index_t j, index_t k) const {
  return {
      node(i, j, k),     node(i + 1, j, k),     node(i + 1, j + 1, k),     node(i, j + 1, k),
      node(i, j, k + 1), node(i + 1, j, k + 1), node(i + 1, j + 1, k + 1), node(i, j + 1, k + 1)};
}

void box_rows::add_nodes(index_t first, index_t last,
                         std::vector<std::array<double, 3>>& coordinates,
                         std::vector<std::int64_t>& ids) const {
  if (first >= last) return;
  coordinates.reserve(coordinates.size() + static_cast<std::size_t>(last - first));
  ids.reserve(ids.size() + static_cast<std::size_t>(last - first));
  double h = options_.lengths[0] / static_cast<double>(n_[0]);
  for (int d = 1; d < dim_; ++d) {
    h = std::min(h, options_.lengths[static_cast<std::size_t>(d)] /
                        static_cast<double>(n_[static_cast<std::size_t>(d)]));
  }
  const double amplitude = options_.perturbation * h;
  auto at = [&](int d, index_t i) {
    const auto du = static_cast<std::size_t>(d);
    // The last node lands exactly on origin + length, so the box volume is exact.
    if (i == n_[du]) return options_.origin[du] + options_.lengths[du];
    return options_.origin[du] +
           options_.lengths[du] * static_cast<double>(i) / static_cast<double>(n_[du]);
  };
  // Node v = i + (nx + 1) (j + (ny + 1) k), walked from the first row on.
  index_t i = first % (n_[0] + 1), j = first / (n_[0] + 1) % (n_[1] + 1);
  index_t k = first / (n_[0] + 1) / (n_[1] + 1);
  for (index_t v = first; v < last; ++v) {
    std::array<double, 3> x{at(0, i), at(1, j), dim_ == 3 ? at(2, k) : 0.0};
    const bool interior =
        i > 0 && i < n_[0] && j > 0 && j < n_[1] && (dim_ == 2 || (k > 0 && k < n_[2]));
    if (interior && amplitude > 0) {
      for (int d = 0; d < dim_; ++d) {
        x[static_cast<std::size_t>(d)] += amplitude * noise(options_.seed, v, d);
      }
    }
    coordinates.push_back(x);
    ids.push_back(v + 1);
    if (++i > n_[0]) {
      i = 0;
      if (++j > n_[1]) {
        j = 0;
        ++k;
      }
    }
  }
}

void box_rows::add_cells(index_t first, index_t last, element_block& cells) const {
  if (first >= last) return;
  cells.reserve(static_cast<std::size_t>(last - first),
                static_cast<std::size_t>((last - first) * nodes_each_));
  // Cell row = sub + per_hex (i + nx (j + ny k)), walked from the first row on.
  const index_t hex = first / per_hex_;
  index_t sub = first % per_hex_, i = hex % n_[0], j = hex / n_[0] % n_[1];
  index_t k = hex / n_[0] / n_[1];
  auto c = corners(i, j, k);
  for (index_t e = first; e < last; ++e) {
    const row r = sub_cell(what_, c, sub);
    cells.add(r.type, r.span(), e + 1, 0);
    if (++sub == per_hex_) {
      sub = 0;
      if (++i == n_[0]) {
        i = 0;
        if (++j == n_[1]) {
          j = 0;
          ++k;
        }
      }
      if (e + 1 < last) c = corners(i, j, k);
    }
  }
}

void box_rows::add_boundary(index_t first, index_t last, element_block& boundary) const {
  if (first >= last) return;
  const index_t nodes_each = dim_ == 2 ? 2 : what_ == box_kind::tet ? 3 : 4;
  boundary.reserve(static_cast<std::size_t>(last - first),
                   static_cast<std::size_t>((last - first) * nodes_each));
  // Boundary row e: the sides one after the other in the order of their tags, each side's
  // edges (faces, v slowest; two triangles per face of a tetrahedral box) in a row.
  auto element = [&](index_t f, std::size_t& side) -> row {
    const index_t nx = n_[0], ny = n_[1];
    if (dim_ == 2) {
      const std::array<index_t, 4> counts{ny, ny, nx, nx};
      for (side = 0; f >= counts[side]; ++side) f -= counts[side];
      switch (side) {
        case 0:
          return {cell_type::line, 2, {node(0, f + 1, 0), node(0, f, 0)}};
        case 1:
          return {cell_type::line, 2, {node(nx, f, 0), node(nx, f + 1, 0)}};
        case 2:
          return {cell_type::line, 2, {node(f, 0, 0), node(f + 1, 0, 0)}};
        default:
          return {cell_type::line, 2, {node(f + 1, ny, 0), node(f, ny, 0)}};
      }
    }
    for (side = 0; f >= side_rows_[side]; ++side) f -= side_rows_[side];
    const index_t sub = what_ == box_kind::tet ? f % 2 : 0;
    if (what_ == box_kind::tet) f /= 2;
    const auto axis = static_cast<std::size_t>(sides[side].axis);
    const std::size_t u = axis_u(axis), v = axis_v(axis);
    std::array<index_t, 3> ijk{};
    ijk[axis] = sides[side].high ? n_[axis] - 1 : 0;
    ijk[u] = f % n_[u];
    ijk[v] = f / n_[u];
    const auto c = corners(ijk[0], ijk[1], ijk[2]);
    const auto local = face_nodes(cell_type::hexahedron, sides[side].face);
    const std::array<index_t, 4> q{c[local[0]], c[local[1]], c[local[2]], c[local[3]]};
    if (what_ == box_kind::tet) return split_quad(q, sub);
    return {cell_type::quad, 4, {q[0], q[1], q[2], q[3]}};
  };
  for (index_t e = first; e < last; ++e) {
    std::size_t side = 0;
    const row r = element(e, side);
    boundary.add(r.type, r.span(), cells_ + 1 + e, static_cast<int>(side) + 1);
  }
}

std::vector<physical_group> box_rows::physical_groups() const {
  if (dim_ == 2) return {{1, 1, "left"}, {1, 2, "right"}, {1, 3, "bottom"}, {1, 4, "top"}};
  return {{2, 1, "left"}, {2, 2, "right"},  {2, 3, "front"},
          {2, 4, "back"}, {2, 5, "bottom"}, {2, 6, "top"}};
}

std::string box_rows::source() const {
  // Named in the errors of later checks (cells by their 1-based ids).
  // (Appended piece by piece: GCC 12 warns falsely on a chain of + here, -Wrestrict.)
  std::string source = "built-in ";
  source.append(box_kind_names[static_cast<std::size_t>(what_)]);
  for (int d = 0; d < dim_; ++d) {
    source.append(d == 0 ? " " : "x");
    source.append(std::to_string(n_[static_cast<std::size_t>(d)]));
  }
  return source;
}

}  // namespace detail

namespace {

mesh generate(detail::box_kind what, std::array<index_t, 3> n, const box_options& options) {
  const detail::box_rows box(what, n, options);
  mesh m;
  m.dimension = box.dimension();
  m.source = box.source();
  box.add_nodes(0, box.node_count(), m.coordinates, m.node_ids);
  box.add_cells(0, box.cell_count(), m.cells);
  box.add_boundary(0, box.boundary_count(), m.boundary);
  m.physical_groups = box.physical_groups();
  return m;
}

}  // namespace

mesh box2d_tri(index_t nx, index_t ny, const box_options& options) {
  return generate(detail::box_kind::tri, {nx, ny, 1}, options);
}

mesh box2d_quad(index_t nx, index_t ny, const box_options& options) {
  return generate(detail::box_kind::quad, {nx, ny, 1}, options);
}

mesh box3d_hex(index_t nx, index_t ny, index_t nz, const box_options& options) {
  return generate(detail::box_kind::hex, {nx, ny, nz}, options);
}

mesh box3d_tet(index_t nx, index_t ny, index_t nz, const box_options& options) {
  return generate(detail::box_kind::tet, {nx, ny, nz}, options);
}

mesh builtin_mesh(std::string_view name, index_t cells_approx, const box_options& options) {
  if (cells_approx <= 0) {
    throw error("funcmesh::builtin_mesh: the cell count must be positive, got " +
                std::to_string(cells_approx));
  }
  const double cells = static_cast<double>(cells_approx);
  auto per_direction = [](double n) {
    return std::max<index_t>(1, static_cast<index_t>(std::llround(n)));
  };
  if (name == "box2d-tri") {
    const index_t n = per_direction(std::sqrt(cells / 2));
    return box2d_tri(n, n, options);
  }
  if (name == "box2d-quad") {
    const index_t n = per_direction(std::sqrt(cells));
    return box2d_quad(n, n, options);
  }
  if (name == "box3d-hex") {
    const index_t n = per_direction(std::cbrt(cells));
    return box3d_hex(n, n, n, options);
  }
  if (name == "box3d-tet") {
    const index_t n = per_direction(std::cbrt(cells / 6));
    return box3d_tet(n, n, n, options);
  }
  if (name == "airfoil") {
    // 3 I J cells with J = 1.5 I (I even), the classic grid's aspect: 720000 -> 400 x 600.
    const index_t half = per_direction(std::sqrt(cells / 4.5) / 2);
    airfoil_options airfoil;
    airfoil.i = 2 * half;
    airfoil.j = 3 * half;
    return airfoil_grid(airfoil);
  }
  throw error("funcmesh::builtin_mesh: unknown mesh '" + std::string(name) +
              "'; valid names: box2d-tri, box2d-quad, box3d-hex, box3d-tet, "
              "airfoil");
}

}  // namespace funcmesh
