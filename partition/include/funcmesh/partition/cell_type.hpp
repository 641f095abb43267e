// Cell types funcmesh meshes hold (Gmsh's first-order elements), with their dimension,
// node count and faces in Gmsh's local node numbering.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace funcmesh {

enum class cell_type : std::uint8_t {
  point,        // 0-D, Gmsh type 15 (kept only as a boundary tag carrier)
  line,         // 1-D, Gmsh type 1
  triangle,     // 2-D, Gmsh type 2
  quad,         // 2-D, Gmsh type 3
  tetrahedron,  // 3-D, Gmsh type 4
  hexahedron,   // 3-D, Gmsh type 5
  prism,        // 3-D, Gmsh type 6
  pyramid,      // 3-D, Gmsh type 7
};

int dimension_of(cell_type type);
int node_count(cell_type type);
std::string_view name_of(cell_type type);
// Gmsh's element type number <-> cell_type; from_gmsh_type returns false for types
// funcmesh does not read (second-order elements and the like).
int gmsh_type(cell_type type);
bool from_gmsh_type(int gmsh, cell_type& type);

// The faces of a cell (edges in 2-D, polygons in 3-D) as lists of local node indices,
// ordered so that, for a positively oriented cell, each face's normal by the right-hand
// rule points out of the cell (2-D: edges run counter-clockwise around the cell).
int face_count(cell_type type);
std::span<const std::uint8_t> face_nodes(cell_type type, int face);
// The type of that face (line in 2-D, triangle or quad in 3-D).
cell_type face_type(cell_type type, int face);

}  // namespace funcmesh
