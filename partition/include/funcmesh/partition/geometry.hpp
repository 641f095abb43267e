// Cell volumes and centroids, face areas, unit normals and centroids, computed once per
// mesh; and the orientation normalisation every mesh goes through on input.
#pragma once

#include <array>
#include <vector>

#include <funcmesh/partition/mesh.hpp>
#include <funcmesh/partition/mesh_faces.hpp>

namespace funcmesh {

// The cells' own geometry, which needs no faces.
struct cell_geometry {
  std::vector<double> cell_volume;  // areas in 2-D
  std::vector<std::array<double, 3>> cell_centroid;
};

struct mesh_geometry : cell_geometry {
  std::vector<double> face_area;  // lengths in 2-D
  // Unit normal out of the face's first cell (in the xy plane in 2-D).
  std::vector<std::array<double, 3>> face_normal;
  std::vector<std::array<double, 3>> face_centroid;
};

// 3-D cells are split into tetrahedra from the cell's vertex average over its faces,
// quad faces into four triangles from the face's vertex average, so non-planar faces are
// handled and the area vectors of a closed cell sum to zero. Throws funcmesh::error when
// `faces` does not belong to `m` or a cell has non-positive volume (the mesh was not
// normalised).
mesh_geometry compute_geometry(const mesh& m, const mesh_faces& faces);
// The cell part of compute_geometry alone (the same bits), without a face list.
cell_geometry compute_cell_geometry(const mesh& m);

// Makes 2-D cells counter-clockwise and 3-D cells positively oriented by reordering
// their nodes (inverted cells are fixed silently: Gmsh writes a surface's cells in the
// direction of its curve loop). Throws funcmesh::error naming the mesh's source, the cell
// (mesh::describe_cell: "element 1234 (triangle, nodes 5 9 12)") and its volume for
// degenerate cells (a repeated node, or |volume| <= 1e-12 * bbox size^dimension) and
// tangled ones (self-intersecting quads; 3-D cells whose sub-tetrahedra have mixed signs).
void normalize_orientation(mesh& m);

}  // namespace funcmesh
