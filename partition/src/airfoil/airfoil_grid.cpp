// The classic Airfoil grid: the NACA0012 upper surface is mapped by w = sqrt(z - 0.0077),
// which opens the airfoil into a nearly flat curve; a not-a-knot spline through it and
// its mirror image bounds a rectangle-like C-grid in the w plane, squared back to z.
#include <funcmesh/partition/airfoil_grid.hpp>

#include <array>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <string>
#include <vector>

#include <funcmesh/core/error.hpp>

#include "not_a_knot_spline.hpp"

namespace funcmesh {

namespace {

index_t multiply(index_t a, index_t b) {
  index_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) {
    throw error("funcmesh::airfoil_grid: the requested size overflows the 64-bit index");
  }
  return product;
}

// The airfoil in the square-root plane: eta(xi) through the 199 mapped surface points.
airfoil_detail::not_a_knot_spline surface_spline() {
  constexpr int points = 100;
  std::vector<std::complex<double>> w(points);
  for (int k = 0; k < points; ++k) {
    const double s = std::sin(std::numbers::pi / 2 * k / (points - 1));
    const double x = s * s;
    double y = 0.594689181 * (0.298222773 * std::sqrt(x) - 0.127125232 * x - 0.357907906 * x * x +
                              0.291984971 * x * x * x - 0.105174696 * x * x * x * x);
    if (k == points - 1) y = 0;  // a closed trailing edge
    w[static_cast<std::size_t>(k)] = std::sqrt(std::complex<double>(x - 0.0077, y));
  }
  // The lower surface is the mirror image: -conj(w) runs from the trailing edge to the
  // leading edge, then w from there back to the trailing edge.
  std::vector<double> xi, eta;
  for (int k = points - 1; k >= 0; --k) {
    xi.push_back(-w[static_cast<std::size_t>(k)].real());
    eta.push_back(w[static_cast<std::size_t>(k)].imag());
  }
  for (int k = 1; k < points; ++k) {
    xi.push_back(w[static_cast<std::size_t>(k)].real());
    eta.push_back(w[static_cast<std::size_t>(k)].imag());
  }
  return airfoil_detail::not_a_knot_spline(std::move(xi), std::move(eta));
}

// x as printf("%.6f") writes it and strtod reads it back. N / 1e6 of the rounded integer
// N is that same double (one correctly rounded division of exact values); only where
// x * 1e6 lies too close to a half for its own rounding error does printf decide.
double round_to_file(double x) {
  const double scaled = x * 1e6;
  const double below = std::floor(scaled);
  const double fraction = scaled - below;
  if (std::abs(fraction - 0.5) < 1e-6 || !(std::abs(scaled) < 1e9)) {
    char text[64];
    std::snprintf(text, sizeof text, "%.6f", x);
    return std::strtod(text, nullptr);
  }
  const double rounded = (fraction < 0.5 ? below : below + 1) / 1e6;
  return rounded == 0 ? std::copysign(0.0, x) : rounded;  // printf keeps "-0.000000"
}

// Node (a, b) -> index; (a, 0) for a >= 2I is its wake-cut twin (3I - a, 0).
index_t node_index(index_t a, index_t b, index_t I, index_t columns) {
  if (b > 0) return a + b * columns - (I + 1);
  return a < 2 * I ? a : 3 * I - a;
}

// Every node's position: the grid lines of the square-root plane, squared (z = w^2).
// Apart from airfoil_grid, whose inlined vector destructors otherwise trip a false
// -Wfree-nonheap-object of GCC 12.
std::vector<std::array<double, 3>> node_coordinates(const airfoil_options& options, index_t columns,
                                                    index_t nodes) {
  const index_t I = options.i, J = options.j;
  // Grid lines in the square-root plane: xi per column, the lower end eta per column.
  std::vector<double> xi(static_cast<std::size_t>(columns)), eta0(xi.size(), 0.0);
  const auto spline = surface_spline();
  for (index_t a = 0; a < columns; ++a) {
    const auto au = static_cast<std::size_t>(a);
    xi[au] = -3 + 2 * static_cast<double>(a) / static_cast<double>(I);
    if (a > I && a < 2 * I) eta0[au] = spline(xi[au]);
  }
  std::vector<std::array<double, 3>> coordinates(static_cast<std::size_t>(nodes));
  for (index_t b = 0; b <= J; ++b) {
    for (index_t a = 0; a < columns; ++a) {
      if (b == 0 && a >= 2 * I) continue;  // merged into its twin
      const auto au = static_cast<std::size_t>(a);
      const double e =
          b == J ? 3.0
                 : eta0[au] + (3 - eta0[au]) * static_cast<double>(b) / static_cast<double>(J);
      double x = xi[au] * xi[au] - e * e, y = 2 * xi[au] * e;
      if (options.round_to_file_precision) {
        x = round_to_file(x);
        y = round_to_file(y);
      }
      coordinates[static_cast<std::size_t>(node_index(a, b, I, columns))] = {x, y, 0.0};
    }
  }
  return coordinates;
}

}  // namespace

mesh airfoil_grid(const airfoil_options& options) {
  const index_t I = options.i, J = options.j;
  if (I < 2 || J < 1) {
    throw error(
        "funcmesh::airfoil_grid: needs i >= 2 cells along the airfoil and j >= 1 "
        "towards the far field, got i = " +
        std::to_string(I) + ", j = " + std::to_string(J));
  }
  const index_t columns = multiply(3, I) + 1;  // node columns a = 0..3I
  const index_t cells = multiply(multiply(3, I), J);
  const index_t nodes = multiply(columns, J + 1) - (I + 1);

  auto node = [&](index_t a, index_t b) { return node_index(a, b, I, columns); };

  mesh m;
  m.dimension = 2;
  m.source = "built-in airfoil " + std::to_string(I) + "x" + std::to_string(J);
  m.coordinates = node_coordinates(options, columns, nodes);

  element_block& c = m.cells;
  c.types.reserve(static_cast<std::size_t>(cells));
  c.offsets.reserve(static_cast<std::size_t>(cells) + 1);
  c.nodes.reserve(static_cast<std::size_t>(multiply(cells, 4)));
  c.ids.reserve(static_cast<std::size_t>(cells));
  c.physical.reserve(static_cast<std::size_t>(cells));
  for (index_t b = 0; b < J; ++b) {
    for (index_t a = 0; a < 3 * I; ++a) {
      // Counter-clockwise in the (xi, eta) plane, and z = w^2 is conformal there.
      const index_t quad[4] = {node(a, b), node(a + 1, b), node(a + 1, b + 1), node(a, b + 1)};
      c.add(cell_type::quad, quad, a + 3 * I * b, 0);
    }
  }

  // Boundary lines in their cell's counter-clockwise direction: wall, then the far field
  // right (a = 3I), top (b = J) and left (a = 0), going round counter-clockwise.
  constexpr int wall = 1, farfield = 2;
  element_block& e = m.boundary;
  auto line = [&](index_t p, index_t q, int group) {
    const index_t ends[2] = {p, q};
    e.add(cell_type::line, ends, cells + e.size(), group);
  };
  for (index_t a = I; a < 2 * I; ++a) line(node(a, 0), node(a + 1, 0), wall);
  for (index_t b = 0; b < J; ++b) line(node(3 * I, b), node(3 * I, b + 1), farfield);
  for (index_t a = 3 * I; a-- > 0;) line(node(a + 1, J), node(a, J), farfield);
  for (index_t b = J; b-- > 0;) line(node(0, b + 1), node(0, b), farfield);
  m.physical_groups = {{1, wall, "wall"}, {1, farfield, "farfield"}};

  // Rounding to 6 decimals could flatten cells of a very fine grid: refuse, not corrupt.
  for (index_t k = 0; k < cells; ++k) {
    const auto q = c.nodes_of(k);
    double twice_area = 0;
    for (std::size_t s = 0; s < 4; ++s) {
      const auto& p0 = m.coordinates[static_cast<std::size_t>(q[s])];
      const auto& p1 = m.coordinates[static_cast<std::size_t>(q[(s + 1) % 4])];
      twice_area += p0[0] * p1[1] - p1[0] * p0[1];
    }
    if (!(twice_area > 0)) {
      throw error("funcmesh::airfoil_grid: cell " + std::to_string(k) +
                  " has no positive area at i = " + std::to_string(I) +
                  ", j = " + std::to_string(J) +
                  (options.round_to_file_precision
                       ? "; the grid is too fine for 6 decimals, set round_to_file_precision = "
                         "false"
                       : ""));
    }
  }
  return m;
}

}  // namespace funcmesh
