#include <funcmesh/partition/vtu_writer.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

#include <funcmesh/core/error.hpp>

namespace funcmesh {

namespace {

int vtk_type(cell_type type) {
  switch (type) {
    case cell_type::point:
      return 1;
    case cell_type::line:
      return 3;
    case cell_type::triangle:
      return 5;
    case cell_type::quad:
      return 9;
    case cell_type::tetrahedron:
      return 10;
    case cell_type::hexahedron:
      return 12;
    case cell_type::prism:
      return 13;
    case cell_type::pyramid:
      return 14;
  }
  return 0;
}

// VTK's wedge wants its first triangle's right-hand normal to point away from the second;
// Gmsh's prism has it pointing toward it.
constexpr std::size_t prism_to_vtk[] = {0, 2, 1, 3, 5, 4};

}  // namespace

void write_vtu(const std::filesystem::path& file, const mesh& m,
               std::span<const cell_field> fields) {
  for (const cell_field& field : fields) {
    if (static_cast<index_t>(field.values.size()) != m.cell_count()) {
      throw error("funcmesh::write_vtu: field '" + field.name + "' has " +
                  std::to_string(field.values.size()) + " values for " +
                  std::to_string(m.cell_count()) + " cells");
    }
  }
  std::filesystem::path temporary = file;
  temporary += ".part";
  {
    std::ofstream out(temporary);
    if (!out) {
      throw error("funcmesh::write_vtu: cannot open " + temporary.string() +
                  " for writing: " + std::strerror(errno));
    }
    out << "<?xml version=\"1.0\"?>\n"
           "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\">\n"
           "<UnstructuredGrid>\n<Piece NumberOfPoints=\""
        << m.node_count() << "\" NumberOfCells=\"" << m.cell_count() << "\">\n";
    out << "<Points>\n<DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n";
    out.precision(17);
    for (const auto& x : m.coordinates) out << x[0] << ' ' << x[1] << ' ' << x[2] << '\n';
    out << "</DataArray>\n</Points>\n<Cells>\n"
           "<DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n";
    for (index_t c = 0; c < m.cell_count(); ++c) {
      const auto nodes = m.cells.nodes_of(c);
      const bool prism = m.cells.types[static_cast<std::size_t>(c)] == cell_type::prism;
      for (std::size_t k = 0; k < nodes.size(); ++k) {
        out << nodes[prism ? prism_to_vtk[k] : k] << ' ';
      }
      out << '\n';
    }
    out << "</DataArray>\n<DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n";
    for (index_t c = 0; c < m.cell_count(); ++c) {
      out << m.cells.offsets[static_cast<std::size_t>(c) + 1] << '\n';
    }
    out << "</DataArray>\n<DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n";
    for (cell_type type : m.cells.types) out << vtk_type(type) << '\n';
    out << "</DataArray>\n</Cells>\n<CellData>\n";
    for (const cell_field& field : fields) {
      out << "<DataArray type=\"Int32\" Name=\"" << field.name << "\" format=\"ascii\">\n";
      for (int v : field.values) out << v << '\n';
      out << "</DataArray>\n";
    }
    out << "</CellData>\n</Piece>\n</UnstructuredGrid>\n</VTKFile>\n";
    out.flush();
    if (!out) {
      const std::string reason = std::strerror(errno);
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw error("funcmesh::write_vtu: writing " + temporary.string() + " failed: " + reason);
    }
  }
  std::error_code failure;
  std::filesystem::rename(temporary, file, failure);
  if (failure) {
    throw error("funcmesh::write_vtu: cannot move " + temporary.string() + " to " + file.string() +
                ": " + failure.message());
  }
}

}  // namespace funcmesh
