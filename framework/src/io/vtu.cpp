// The .vtu piece writer (appended raw binary) and the .pvtu / .pvd index writers.
#include <funcmesh/io/vtu.hpp>

#include <bit>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <ostream>
#include <sstream>
#include <string_view>

#include <funcmesh/core/error.hpp>

#include <funcmesh/io/detail/atomic_file.hpp>
#include <funcmesh/io/detail/xml_escape.hpp>

namespace funcmesh::io {

static_assert(std::endian::native == std::endian::little,
              "the VTK writers declare byte_order=\"LittleEndian\" and write native bytes");

namespace {

template <class T>
std::string_view vtk_type_name() {
  if constexpr (std::is_same_v<T, double>) return "Float64";
  if constexpr (std::is_same_v<T, std::int32_t>) return "Int32";
  if constexpr (std::is_same_v<T, std::int64_t>) return "Int64";
  if constexpr (std::is_same_v<T, std::uint8_t>) return "UInt8";
}

// The appended block, built while the XML header is written: each array's offset is the
// byte position of its 8-byte size header within the block.
struct appended {
  std::vector<std::pair<const void*, std::uint64_t>> arrays;
  std::uint64_t size = 0;
  std::uint64_t add(const void* data, std::uint64_t bytes) {
    const std::uint64_t offset = size;
    arrays.emplace_back(data, bytes);
    size += sizeof(std::uint64_t) + bytes;
    return offset;
  }
};

template <class T>
void data_array(std::ostream& out, appended& block, std::string_view name, int components,
                std::span<const T> values) {
  out << "<DataArray type=\"" << vtk_type_name<T>() << "\"";
  if (!name.empty()) out << " Name=\"" << detail::xml_escaped(name) << "\"";
  if (components != 1) out << " NumberOfComponents=\"" << components << "\"";
  out << " format=\"appended\" offset=\"" << block.add(values.data(), values.size_bytes())
      << "\"/>\n";
}

void check(const unstructured_piece& piece, std::span<const cell_field> fields,
           const std::filesystem::path& file) {
  const std::string who = "funcmesh::io::write_vtu(" + file.string() + "): ";
  const auto cells = static_cast<std::size_t>(piece.cell_count());
  if (piece.offsets.size() != cells) {
    throw error(who + std::to_string(piece.offsets.size()) + " offsets for " +
                std::to_string(cells) + " cells");
  }
  if (cells > 0 && piece.offsets.back() != static_cast<std::int64_t>(piece.connectivity.size())) {
    throw error(who + "the last offset is not the connectivity's length");
  }
  for (const cell_field& field : fields) {
    if (field.components < 1 || field.components > 9) {
      throw error(who + "field '" + field.name + "' has " + std::to_string(field.components) +
                  " components (1..9 allowed)");
    }
    if (field.value_count() != cells * static_cast<std::size_t>(field.components)) {
      throw error(who + "field '" + field.name + "' has " + std::to_string(field.value_count()) +
                  " values for " + std::to_string(cells) + " cells x " +
                  std::to_string(field.components) + " components");
    }
  }
}

}  // namespace

void write_vtu(const std::filesystem::path& file, const unstructured_piece& piece,
               std::span<const cell_field> fields) {
  check(piece, fields, file);
  detail::write_atomically(file, "funcmesh::io::write_vtu", [&](std::ostream& out) {
    appended block;
    out << "<?xml version=\"1.0\"?>\n"
           "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" "
           "header_type=\"UInt64\">\n<UnstructuredGrid>\n<Piece NumberOfPoints=\""
        << piece.point_count() << "\" NumberOfCells=\"" << piece.cell_count() << "\">\n<Points>\n";
    data_array<double>(
        out, block, "Points", 3,
        {piece.points.empty() ? nullptr : piece.points.front().data(), piece.points.size() * 3});
    out << "</Points>\n<Cells>\n";
    data_array<std::int64_t>(out, block, "connectivity", 1, piece.connectivity);
    data_array<std::int64_t>(out, block, "offsets", 1, piece.offsets);
    data_array<std::uint8_t>(out, block, "types", 1, piece.types);
    out << "</Cells>\n<CellData>\n";
    for (const cell_field& field : fields) {
      std::visit(
          [&](auto values) {
            using T = typename decltype(values)::element_type;
            data_array<std::remove_const_t<T>>(out, block, field.name, field.components, values);
          },
          field.values);
    }
    out << "</CellData>\n</Piece>\n</UnstructuredGrid>\n<AppendedData encoding=\"raw\">\n_";
    for (const auto& [data, bytes] : block.arrays) {
      out.write(reinterpret_cast<const char*>(&bytes), sizeof bytes);
      if (bytes > 0) out.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
    }
    out << "\n</AppendedData>\n</VTKFile>\n";
  });
}

std::vector<field_layout> layout_of(std::span<const cell_field> fields) {
  std::vector<field_layout> layout;
  for (const cell_field& field : fields) {
    const std::string type = std::visit(
        [](auto values) {
          using T = std::remove_const_t<typename decltype(values)::element_type>;
          return std::string(vtk_type_name<T>());
        },
        field.values);
    layout.push_back({field.name, field.components, type});
  }
  return layout;
}

void write_pvtu(const std::filesystem::path& file, std::span<const std::string> pieces,
                std::span<const field_layout> fields) {
  detail::write_atomically(file, "funcmesh::io::write_pvtu", [&](std::ostream& out) {
    out << "<?xml version=\"1.0\"?>\n"
           "<VTKFile type=\"PUnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" "
           "header_type=\"UInt64\">\n<PUnstructuredGrid GhostLevel=\"0\">\n"
           "<PPoints>\n<PDataArray type=\"Float64\" NumberOfComponents=\"3\"/>\n</PPoints>\n"
           "<PCellData>\n";
    for (const field_layout& field : fields) {
      out << "<PDataArray type=\"" << field.vtk_type << "\" Name=\""
          << detail::xml_escaped(field.name) << "\"";
      if (field.components != 1) out << " NumberOfComponents=\"" << field.components << "\"";
      out << "/>\n";
    }
    out << "</PCellData>\n";
    for (const std::string& piece : pieces) {
      out << "<Piece Source=\"" << detail::xml_escaped(piece) << "\"/>\n";
    }
    out << "</PUnstructuredGrid>\n</VTKFile>\n";
  });
}

void write_pvd(const std::filesystem::path& file, std::span<const pvd_entry> entries) {
  detail::write_atomically(file, "funcmesh::io::write_pvd", [&](std::ostream& out) {
    out << "<?xml version=\"1.0\"?>\n"
           "<VTKFile type=\"Collection\" version=\"1.0\" byte_order=\"LittleEndian\">\n"
           "<Collection>\n";
    out << std::setprecision(std::numeric_limits<double>::max_digits10);
    for (const pvd_entry& entry : entries) {
      out << "<DataSet timestep=\"" << entry.time << "\" group=\"\" part=\"0\" file=\""
          << detail::xml_escaped(entry.file) << "\"/>\n";
    }
    out << "</Collection>\n</VTKFile>\n";
  });
}

}  // namespace funcmesh::io
