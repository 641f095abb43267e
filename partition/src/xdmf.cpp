// XDMF 3 text for funcmesh's HDF5 files (xdmf.hpp): written by hand, a few elements, so
// that no XDMF library is needed to write it (Debian's python3-xdmf cannot even load).
#include <funcmesh/partition/xdmf.hpp>

#include <sstream>

#include <funcmesh/core/error.hpp>
#include <funcmesh/io/detail/atomic_file.hpp>
#include <funcmesh/io/detail/xml_escape.hpp>

namespace funcmesh {

int xdmf_cell_code(cell_type type) {
  switch (type) {
    case cell_type::triangle:
      return 4;
    case cell_type::quad:
      return 5;
    case cell_type::tetrahedron:
      return 6;
    case cell_type::pyramid:
      return 7;
    case cell_type::prism:
      return 8;
    case cell_type::hexahedron:
      return 9;
    case cell_type::point:
    case cell_type::line:
      break;
  }
  throw error("funcmesh::xdmf_cell_code: a " + std::string(name_of(type)) +
              " is not a 2-D or 3-D cell");
}

void append_xdmf_cell(std::vector<std::int64_t>& stream, cell_type type,
                      std::span<const index_t> nodes, std::int64_t first_node) {
  constexpr std::size_t prism_to_xdmf[] = {0, 2, 1, 3, 5, 4};
  stream.push_back(xdmf_cell_code(type));
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    stream.push_back(first_node + nodes[type == cell_type::prism ? prism_to_xdmf[k] : k]);
  }
}

namespace {

void data_item(std::ostringstream& out, const xdmf_array& a, const char* indent) {
  out << indent << "<DataItem Dimensions=\"";
  for (std::size_t k = 0; k < a.dimensions.size(); ++k) out << (k ? " " : "") << a.dimensions[k];
  out << "\" NumberType=\"" << (a.integer ? "Int" : "Float") << "\" Precision=\"" << a.precision
      << "\" Format=\"HDF\">" << io::detail::xml_escaped(a.reference) << "</DataItem>\n";
}

}  // namespace

std::string xdmf_text(const xdmf_grid& grid) {
  std::ostringstream out;
  out.precision(17);
  out << "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\">\n <Domain>\n";
  const bool timed = grid.time.has_value();
  const char* in = timed ? "   " : "  ";
  if (timed) {
    out << "  <Grid Name=\"" << io::detail::xml_escaped(grid.name)
        << " series\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  }
  out << in << "<Grid Name=\"" << io::detail::xml_escaped(grid.name)
      << "\" GridType=\"Uniform\">\n";
  const std::string inner = std::string(in) + " ";
  const std::string item = inner + " ";
  if (timed) out << inner << "<Time Value=\"" << *grid.time << "\"/>\n";
  out << inner << "<Topology TopologyType=\"Mixed\" NumberOfElements=\"" << grid.cells << "\">\n";
  data_item(out, grid.topology, item.c_str());
  out << inner << "</Topology>\n" << inner << "<Geometry GeometryType=\"XYZ\">\n";
  data_item(out, grid.points, item.c_str());
  out << inner << "</Geometry>\n";
  for (const xdmf_attribute& a : grid.attributes) {
    const std::int64_t components = a.values.dimensions.size() > 1 ? a.values.dimensions[1] : 1;
    const char* type = components == 1 ? "Scalar" : components == 3 ? "Vector" : "Matrix";
    out << inner << "<Attribute Name=\"" << io::detail::xml_escaped(a.name) << "\" AttributeType=\""
        << type << "\" Center=\"Cell\">\n";
    data_item(out, a.values, item.c_str());
    out << inner << "</Attribute>\n";
  }
  out << in << "</Grid>\n";
  if (timed) out << "  </Grid>\n";
  out << " </Domain>\n</Xdmf>\n";
  return out.str();
}

void write_xdmf(const std::filesystem::path& file, const xdmf_grid& grid, const std::string& who) {
  const std::string text = xdmf_text(grid);
  io::detail::write_atomically(file, who, [&](std::ostream& out) { out << text; });
}

}  // namespace funcmesh
