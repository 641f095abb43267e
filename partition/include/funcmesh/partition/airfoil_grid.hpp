// The classic Airfoil benchmark grid: a C-grid of 3I x J quadrilaterals around NACA0012,
// built from the airfoil's complex square root as the grid file the benchmark is known by
// was, with the wake cut merged so that cells on both sides of it share faces.
#pragma once

#include <funcmesh/core/index.hpp>
#include <funcmesh/partition/mesh.hpp>

namespace funcmesh {

struct airfoil_options {
  index_t i = 100;  // cells along the airfoil (the C-grid has 3 i cells around)
  index_t j = 150;  // cells from the airfoil and wake to the far field
  // Node coordinates rounded to 6 decimal places, as the classic grid file stores them:
  // the published residuals (5.02186e-04 at iteration 100 on i = 400, j = 600) need it.
  bool round_to_file_precision = true;
};

// 3 i j quads (counter-clockwise, positive area), (3 i + 1)(j + 1) - (i + 1) nodes.
// Node (a, b) of the structured grid, a = 0..3i, b = 0..j, is node a + b (3i + 1) - (i + 1)
// for b > 0 and a for b = 0, a < 2i; the nodes (a, 0), a >= 2i, are the wake-cut twins of
// (3i - a, 0). Cell (a, b) is cell a + 3i b. Boundary lines run counter-clockwise around
// their cell (the outward normal is on their right), tagged with 1-D physical groups
// 1 "wall" (the i faces on the airfoil) and 2 "farfield" (2 j + 3 i faces). Node, cell
// and boundary ids are 0-based, boundary ids continuing after the cells'.
// Throws funcmesh::error for i < 2, j < 1 or a size whose counts overflow.
mesh airfoil_grid(const airfoil_options& options = {});

}  // namespace funcmesh
