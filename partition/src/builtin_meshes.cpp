// Built-in box meshes on a structured grid of nodes (x fastest). Tetrahedra follow the
// Kuhn split, whose face diagonals always join a face's lowest and highest corner, so
// neighbouring hexahedra agree on them and the mesh is conforming.
#include <funcmesh/partition/builtin_meshes.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/airfoil_grid.hpp>

namespace funcmesh {

namespace {

enum class kind { tri, quad, hex, tet };

index_t multiply(index_t a, index_t b) {
  index_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) {
    throw error("funcmesh::builtin mesh: the requested size overflows the 64-bit index");
  }
  return product;
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

struct grid {
  int dim;
  std::array<index_t, 3> n;  // cells per direction, n[2] = 1 in 2-D (one layer of nodes)
  index_t node(index_t i, index_t j, index_t k) const {
    return i + (n[0] + 1) * (j + (n[1] + 1) * k);
  }
  // The hexahedron (quad in 2-D) of cell (i, j, k) in Gmsh's local order.
  std::array<index_t, 8> corners(index_t i, index_t j, index_t k) const {
    return {
        node(i, j, k),     node(i + 1, j, k),     node(i + 1, j + 1, k),     node(i, j + 1, k),
        node(i, j, k + 1), node(i + 1, j, k + 1), node(i + 1, j + 1, k + 1), node(i, j + 1, k + 1)};
  }
};

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

void add_nodes(mesh& m, const grid& g, const box_options& options) {
  const index_t nz = g.dim == 3 ? g.n[2] + 1 : 1;
  const index_t count = multiply(multiply(g.n[0] + 1, g.n[1] + 1), nz);
  m.coordinates.resize(static_cast<std::size_t>(count));
  m.node_ids.resize(static_cast<std::size_t>(count));
  double h = options.lengths[0] / static_cast<double>(g.n[0]);
  for (int d = 1; d < g.dim; ++d) {
    h = std::min(h, options.lengths[static_cast<std::size_t>(d)] /
                        static_cast<double>(g.n[static_cast<std::size_t>(d)]));
  }
  const double amplitude = options.perturbation * h;
  auto at = [&](int d, index_t i) {
    const auto du = static_cast<std::size_t>(d);
    // The last node lands exactly on origin + length, so the box volume is exact.
    if (i == g.n[du]) return options.origin[du] + options.lengths[du];
    return options.origin[du] +
           options.lengths[du] * static_cast<double>(i) / static_cast<double>(g.n[du]);
  };
  for (index_t k = 0; k < nz; ++k) {
    for (index_t j = 0; j <= g.n[1]; ++j) {
      for (index_t i = 0; i <= g.n[0]; ++i) {
        const index_t v = g.node(i, j, k);
        std::array<double, 3> x{at(0, i), at(1, j), g.dim == 3 ? at(2, k) : 0.0};
        const bool interior =
            i > 0 && i < g.n[0] && j > 0 && j < g.n[1] && (g.dim == 2 || (k > 0 && k < g.n[2]));
        if (interior && amplitude > 0) {
          for (int d = 0; d < g.dim; ++d) {
            x[static_cast<std::size_t>(d)] += amplitude * noise(options.seed, v, d);
          }
        }
        m.coordinates[static_cast<std::size_t>(v)] = x;
        m.node_ids[static_cast<std::size_t>(v)] = v + 1;
      }
    }
  }
}

void reserve(element_block& block, index_t count, index_t nodes_each) {
  block.types.reserve(static_cast<std::size_t>(count));
  block.offsets.reserve(static_cast<std::size_t>(count) + 1);
  block.nodes.reserve(static_cast<std::size_t>(multiply(count, nodes_each)));
  block.ids.reserve(static_cast<std::size_t>(count));
  block.physical.reserve(static_cast<std::size_t>(count));
}

void push(element_block& block, cell_type type, std::initializer_list<index_t> nodes,
          int physical) {
  block.types.push_back(type);
  block.nodes.insert(block.nodes.end(), nodes.begin(), nodes.end());
  block.offsets.push_back(static_cast<index_t>(block.nodes.size()));
  block.ids.push_back(static_cast<std::int64_t>(block.ids.size()) + 1);
  block.physical.push_back(physical);
}

// Kuhn's six tetrahedra: paths from corner 0 to corner 7 along the axes in every order;
// odd permutations swap two nodes to stay positively oriented.
void push_tets(element_block& block, const std::array<index_t, 8>& hex) {
  // Corner with bits (x, y, z) -> its Gmsh hexahedron position.
  static constexpr std::array<int, 8> position{0, 1, 3, 2, 4, 5, 7, 6};
  static constexpr std::array<std::array<int, 3>, 6> orders{
      {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {1, 0, 2}, {2, 1, 0}}};
  for (std::size_t p = 0; p < orders.size(); ++p) {
    const int b1 = 1 << orders[p][0];
    const int b2 = b1 | (1 << orders[p][1]);
    const index_t c0 = hex[0], c3 = hex[6];
    const index_t c1 = hex[static_cast<std::size_t>(position[static_cast<std::size_t>(b1)])];
    const index_t c2 = hex[static_cast<std::size_t>(position[static_cast<std::size_t>(b2)])];
    if (p < 3) {
      push(block, cell_type::tetrahedron, {c0, c1, c2, c3}, 0);
    } else {
      push(block, cell_type::tetrahedron, {c0, c2, c1, c3}, 0);
    }
  }
}

// A boundary quad (outward) as two triangles split along the diagonal from its lowest
// node (the face's lowest corner) to the opposite one, as the Kuhn split does.
void push_split_quad(element_block& block, const std::array<index_t, 4>& q, int physical) {
  std::size_t low = 0;
  for (std::size_t a = 1; a < 4; ++a) {
    if (q[a] < q[low]) low = a;
  }
  const index_t a = q[low], b = q[(low + 1) % 4], c = q[(low + 2) % 4], d = q[(low + 3) % 4];
  push(block, cell_type::triangle, {a, b, c}, physical);
  push(block, cell_type::triangle, {a, c, d}, physical);
}

mesh generate(kind what, std::array<index_t, 3> n, const box_options& options) {
  const int dim = what == kind::tri || what == kind::quad ? 2 : 3;
  if (dim == 2) n[2] = 1;
  for (int d = 0; d < 3; ++d) {
    if (n[static_cast<std::size_t>(d)] <= 0) {
      throw error("funcmesh::builtin mesh: cells per direction must be positive, got " +
                  std::to_string(n[static_cast<std::size_t>(d)]));
    }
  }
  check_options(options, dim);
  const grid g{dim, n};
  const index_t per_hex = what == kind::tri ? 2 : what == kind::tet ? 6 : 1;
  const index_t cells = multiply(multiply(multiply(n[0], n[1]), n[2]), per_hex);
  const index_t nodes_each = what == kind::tri                         ? 3
                             : what == kind::quad || what == kind::tet ? 4
                                                                       : 8;
  multiply(multiply(n[0] + 1, n[1] + 1), n[2] + 1);  // overflow check of the node count

  mesh m;
  m.dimension = dim;
  // Named in the errors of later checks (cells by their 1-based ids).
  // (Appended piece by piece: GCC 12 warns falsely on a chain of + here, -Wrestrict.)
  static constexpr const char* names[] = {"box2d-tri", "box2d-quad", "box3d-hex", "box3d-tet"};
  m.source = "built-in ";
  m.source.append(names[static_cast<int>(what)]);
  for (int d = 0; d < dim; ++d) {
    m.source.append(d == 0 ? " " : "x");
    m.source.append(std::to_string(n[static_cast<std::size_t>(d)]));
  }
  add_nodes(m, g, options);
  reserve(m.cells, cells, nodes_each);
  const index_t nz = dim == 3 ? n[2] : 1;
  for (index_t k = 0; k < nz; ++k) {
    for (index_t j = 0; j < n[1]; ++j) {
      for (index_t i = 0; i < n[0]; ++i) {
        const auto c = g.corners(i, j, k);
        switch (what) {
          case kind::tri:
            push(m.cells, cell_type::triangle, {c[0], c[1], c[2]}, 0);
            push(m.cells, cell_type::triangle, {c[0], c[2], c[3]}, 0);
            break;
          case kind::quad:
            push(m.cells, cell_type::quad, {c[0], c[1], c[2], c[3]}, 0);
            break;
          case kind::hex:
            push(m.cells, cell_type::hexahedron, {c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]},
                 0);
            break;
          case kind::tet:
            push_tets(m.cells, c);
            break;
        }
      }
    }
  }

  // Boundary faces in the order of the physical ids, taken from the outward face tables.
  element_block& b = m.boundary;
  const index_t first_id = cells + 1;
  if (dim == 2) {
    reserve(b, 2 * (n[0] + n[1]), 2);
    for (index_t j = 0; j < n[1]; ++j)
      push(b, cell_type::line, {g.node(0, j + 1, 0), g.node(0, j, 0)}, 1);
    for (index_t j = 0; j < n[1]; ++j) {
      push(b, cell_type::line, {g.node(n[0], j, 0), g.node(n[0], j + 1, 0)}, 2);
    }
    for (index_t i = 0; i < n[0]; ++i)
      push(b, cell_type::line, {g.node(i, 0, 0), g.node(i + 1, 0, 0)}, 3);
    for (index_t i = 0; i < n[0]; ++i) {
      push(b, cell_type::line, {g.node(i + 1, n[1], 0), g.node(i, n[1], 0)}, 4);
    }
    m.physical_groups = {{1, 1, "left"}, {1, 2, "right"}, {1, 3, "bottom"}, {1, 4, "top"}};
  } else {
    const index_t faces = 2 * (n[0] * n[1] + n[1] * n[2] + n[0] * n[2]);
    reserve(b, what == kind::tet ? 2 * faces : faces, what == kind::tet ? 3 : 4);
    // Per tag: the hexahedron face (cell_type.cpp's table) and the cells along it.
    struct side {
      int face, axis;
      bool high;
    };
    static constexpr std::array<side, 6> sides{
        {{5, 0, false}, {3, 0, true}, {2, 1, false}, {4, 1, true}, {0, 2, false}, {1, 2, true}}};
    for (std::size_t s = 0; s < sides.size(); ++s) {
      const auto local = face_nodes(cell_type::hexahedron, sides[s].face);
      const auto axis = static_cast<std::size_t>(sides[s].axis);
      const std::size_t u = axis == 0 ? 1 : 0, v = axis == 2 ? 1 : 2;
      const index_t fixed = sides[s].high ? n[axis] - 1 : 0;
      for (index_t bv = 0; bv < n[v]; ++bv) {
        for (index_t bu = 0; bu < n[u]; ++bu) {
          std::array<index_t, 3> ijk{};
          ijk[axis] = fixed;
          ijk[u] = bu;
          ijk[v] = bv;
          const auto c = g.corners(ijk[0], ijk[1], ijk[2]);
          const std::array<index_t, 4> q{c[local[0]], c[local[1]], c[local[2]], c[local[3]]};
          if (what == kind::tet) {
            push_split_quad(b, q, static_cast<int>(s) + 1);
          } else {
            push(b, cell_type::quad, {q[0], q[1], q[2], q[3]}, static_cast<int>(s) + 1);
          }
        }
      }
    }
    m.physical_groups = {{2, 1, "left"}, {2, 2, "right"},  {2, 3, "front"},
                         {2, 4, "back"}, {2, 5, "bottom"}, {2, 6, "top"}};
  }
  for (std::size_t e = 0; e < b.ids.size(); ++e) b.ids[e] = first_id + static_cast<index_t>(e);
  return m;
}

}  // namespace

mesh box2d_tri(index_t nx, index_t ny, const box_options& options) {
  return generate(kind::tri, {nx, ny, 1}, options);
}

mesh box2d_quad(index_t nx, index_t ny, const box_options& options) {
  return generate(kind::quad, {nx, ny, 1}, options);
}

mesh box3d_hex(index_t nx, index_t ny, index_t nz, const box_options& options) {
  return generate(kind::hex, {nx, ny, nz}, options);
}

mesh box3d_tet(index_t nx, index_t ny, index_t nz, const box_options& options) {
  return generate(kind::tet, {nx, ny, nz}, options);
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
