// XDMF descriptions of funcmesh's HDF5 files: a small XML file beside the heavy data that
// tells ParaView, VisIt (and meshio) which datasets are the points, the cells and the
// fields, so that a checkpoint or a mesh file opens without a converter.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/partition/cell_type.hpp>

namespace funcmesh {

// XDMF's number for a cell type in a Mixed topology (triangle 4, quadrilateral 5,
// tetrahedron 6, pyramid 7, wedge 8, hexahedron 9). Lines and points (boundary elements)
// are refused: funcmesh's cells are 2-D or 3-D.
int xdmf_cell_code(cell_type type);

// Appends one cell to a Mixed topology stream: its XDMF code, then its nodes (each plus
// `first_node`) in XDMF's (VTK's) order: Gmsh's, except that a prism's two triangles are
// turned (VTK's wedge wants the first one's normal pointing away from the second).
void append_xdmf_cell(std::vector<std::int64_t>& stream, cell_type type,
                      std::span<const index_t> nodes, std::int64_t first_node = 0);

// A dataset of an HDF5 file, as XDMF names it: "FILE.h5:/path" (FILE relative to the
// XDMF file's folder) and its shape.
struct xdmf_array {
  std::string reference;
  std::vector<std::int64_t> dimensions;
  bool integer = false;  // integers; else floats
  int precision = 8;     // bytes per value
};

// A cell field: 1 component a Scalar, 3 a Vector, any other count a Matrix (rows x
// components: ParaView shows it as one array of that many components).
struct xdmf_attribute {
  std::string name;
  xdmf_array values;
};

// One unstructured grid: a Mixed topology of `cells` cells, XYZ points, cell fields. With
// a time it is written as a temporal collection of one grid (ParaView shows the time, and
// opens several such files as a series).
struct xdmf_grid {
  std::string name;
  std::int64_t cells = 0;
  xdmf_array topology;
  xdmf_array points;
  std::optional<double> time;
  std::vector<xdmf_attribute> attributes;
};

// The XDMF 3 document describing `grid`.
std::string xdmf_text(const xdmf_grid& grid);

// Writes xdmf_text(grid) to `file` atomically (FILE.part, renamed). Throws
// funcmesh::error naming `who`, the file and what failed.
void write_xdmf(const std::filesystem::path& file, const xdmf_grid& grid, const std::string& who);

}  // namespace funcmesh
