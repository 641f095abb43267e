// write_vtu round trip through a minimal reader of the appended raw format, the index
// files, and vtk_piece (owned cells of a local mesh, nodes renumbered).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <funcmesh/core/error.hpp>
#include <funcmesh/io/vtu.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/local_mesh.hpp>
#include <funcmesh/partition/vtk_piece.hpp>

namespace fm = funcmesh;
namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("funcmesh_vtu_test_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// The XML header up to the appended block, and each DataArray's attributes and raw bytes.
struct parsed_array {
  std::map<std::string, std::string> attributes;
  std::string bytes;
};
struct parsed_vtu {
  std::string header;
  std::vector<parsed_array> arrays;
  const parsed_array& named(const std::string& name) const {
    for (const auto& a : arrays) {
      if (a.attributes.count("Name") && a.attributes.at("Name") == name) return a;
    }
    throw std::runtime_error("no array " + name);
  }
  template <class T>
  std::vector<T> values(const std::string& name) const {
    const std::string& b = named(name).bytes;
    std::vector<T> out(b.size() / sizeof(T));
    std::memcpy(out.data(), b.data(), out.size() * sizeof(T));
    return out;
  }
};

parsed_vtu read_vtu(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string marker = "<AppendedData encoding=\"raw\">";
  const auto at = text.find(marker);
  if (at == std::string::npos) throw std::runtime_error("no raw appended data");
  const auto data = text.find('_', at) + 1;
  parsed_vtu out;
  out.header = text.substr(0, at);
  std::size_t pos = 0;
  while ((pos = out.header.find("<DataArray", pos)) != std::string::npos) {
    const auto end = out.header.find("/>", pos);
    std::istringstream tag(out.header.substr(pos + 10, end - pos - 10));
    parsed_array array;
    std::string attribute;
    while (tag >> attribute) {
      const auto eq = attribute.find('=');
      array.attributes[attribute.substr(0, eq)] =
          attribute.substr(eq + 2, attribute.size() - eq - 3);
    }
    const auto offset = std::stoull(array.attributes.at("offset"));
    std::uint64_t size = 0;
    std::memcpy(&size, text.data() + data + offset, sizeof size);
    array.bytes = text.substr(data + offset + sizeof size, size);
    out.arrays.push_back(std::move(array));
    pos = end;
  }
  return out;
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  return {(std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()};
}

// Two triangles and a quad over 5 points.
fm::io::unstructured_piece small_piece() {
  fm::io::unstructured_piece p;
  p.points = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {2, 0.5, 0}};
  p.connectivity = {0, 1, 2, 0, 2, 3, 1, 4, 4, 2};
  p.offsets = {3, 6, 10};
  p.types = {fm::io::vtk_cell::triangle, fm::io::vtk_cell::triangle, fm::io::vtk_cell::quad};
  return p;
}

}  // namespace

TEST(vtu, round_trip_through_appended_raw_data) {
  const fs::path file = scratch("round_trip") / "piece.vtu";
  const auto piece = small_piece();
  const std::vector<double> u{0.1, -2.5e-300, 1.0 / 3.0};
  const std::vector<fm::vec<double, 3>> velocity{{{1, 2, 3}}, {{4, 5, 6}}, {{7, 8, 9.5}}};
  const std::vector<std::int32_t> part{3, 4, 5};
  const std::vector<std::int64_t> ids{1LL << 40, 2, 3};
  const std::vector<fm::io::cell_field> fields{
      fm::io::scalar_field("u", std::span<const double>(u)),
      fm::io::vector_field<3>("velocity", std::span<const fm::vec<double, 3>>(velocity)),
      fm::io::scalar_field("part", std::span<const std::int32_t>(part)),
      fm::io::scalar_field("id", std::span<const std::int64_t>(ids))};
  fm::io::write_vtu(file, piece, fields);
  EXPECT_FALSE(fs::exists(file.string() + ".part"));

  const parsed_vtu vtu = read_vtu(file);
  EXPECT_NE(vtu.header.find("NumberOfPoints=\"5\" NumberOfCells=\"3\""), std::string::npos);
  EXPECT_NE(vtu.header.find("header_type=\"UInt64\""), std::string::npos);
  const auto points = vtu.values<double>("Points");
  ASSERT_EQ(points.size(), 15u);
  EXPECT_EQ(points[12], 2.0);
  EXPECT_EQ(points[13], 0.5);
  EXPECT_EQ(vtu.values<std::int64_t>("connectivity"), piece.connectivity);
  EXPECT_EQ(vtu.values<std::int64_t>("offsets"), piece.offsets);
  EXPECT_EQ(vtu.values<std::uint8_t>("types"), piece.types);
  EXPECT_EQ(vtu.values<double>("u"), u);
  EXPECT_EQ(vtu.named("velocity").attributes.at("NumberOfComponents"), "3");
  EXPECT_EQ(vtu.named("velocity").attributes.at("type"), "Float64");
  const auto v = vtu.values<double>("velocity");
  ASSERT_EQ(v.size(), 9u);
  EXPECT_EQ(v[8], 9.5);
  EXPECT_EQ(vtu.values<std::int32_t>("part"), part);
  EXPECT_EQ(vtu.named("part").attributes.at("type"), "Int32");
  EXPECT_EQ(vtu.values<std::int64_t>("id"), ids);
}

TEST(vtu, wrong_field_length_and_bad_path_name_the_file) {
  const fs::path dir = scratch("errors");
  const auto piece = small_piece();
  const std::vector<double> short_values{1, 2};
  const std::vector<fm::io::cell_field> fields{
      fm::io::scalar_field("u", std::span<const double>(short_values))};
  try {
    fm::io::write_vtu(dir / "a.vtu", piece, fields);
    FAIL() << "expected an error";
  } catch (const fm::error& e) {
    EXPECT_NE(std::string(e.what()).find("a.vtu"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'u' has 2 values for 3 cells"), std::string::npos)
        << e.what();
  }
  const fs::path missing = dir / "no_such_dir" / "b.vtu";
  try {
    fm::io::write_vtu(missing, piece);
    FAIL() << "expected an error";
  } catch (const fm::error& e) {
    EXPECT_NE(std::string(e.what()).find(missing.string()), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(missing));
}

TEST(vtu, index_files_name_pieces_fields_and_times) {
  const fs::path dir = scratch("index");
  const std::vector<std::string> pieces{"s_0_0.vtu", "s_0_1.vtu"};
  const std::vector<fm::io::field_layout> layout{{"u", 1, "Float64"}, {"q", 4, "Float64"}};
  fm::io::write_pvtu(dir / "s_0.pvtu", pieces, layout);
  const std::string pvtu = read_text(dir / "s_0.pvtu");
  EXPECT_NE(pvtu.find("<Piece Source=\"s_0_1.vtu\"/>"), std::string::npos);
  EXPECT_NE(pvtu.find("Name=\"q\" NumberOfComponents=\"4\""), std::string::npos);
  const std::vector<fm::io::pvd_entry> entries{{0.0, "s_0.pvtu"}, {0.125, "s_1.pvtu"}};
  fm::io::write_pvd(dir / "s.pvd", entries);
  const std::string pvd = read_text(dir / "s.pvd");
  EXPECT_NE(pvd.find("timestep=\"0.125\" group=\"\" part=\"0\" file=\"s_1.pvtu\""),
            std::string::npos)
      << pvd;
}

TEST(vtk_piece, owned_cells_only_with_their_nodes_renumbered) {
  const fm::mesh global = fm::box2d_quad(4, 3);
  std::vector<int> part(static_cast<std::size_t>(global.cell_count()), 1);
  for (int c = 0; c < 4; ++c) part[static_cast<std::size_t>(c)] = 0;  // the bottom row
  const fm::local_mesh local = fm::build_local_mesh(global, part, 2, 0);
  ASSERT_EQ(local.owned_count, 4);
  ASSERT_GT(local.halo_count(), 0);
  const auto piece = fm::owned_vtk_piece(local);
  EXPECT_EQ(piece.cell_count(), 4);
  EXPECT_EQ(piece.point_count(), 10);  // 5 x 2 nodes under one row of quads
  for (auto type : piece.types) EXPECT_EQ(type, fm::io::vtk_cell::quad);
  for (std::int64_t c = 0; c < piece.cell_count(); ++c) {
    const auto mesh_nodes = local.cells.cells.nodes_of(c);
    const auto piece_nodes = piece.points_of(c);
    ASSERT_EQ(mesh_nodes.size(), piece_nodes.size());
    for (std::size_t k = 0; k < mesh_nodes.size(); ++k) {
      EXPECT_EQ(piece.points[static_cast<std::size_t>(piece_nodes[k])],
                local.cells.coordinates[static_cast<std::size_t>(mesh_nodes[k])]);
    }
  }
}

TEST(vtk_piece, prisms_are_reordered_for_vtk) {
  fm::mesh m;
  m.dimension = 3;
  m.coordinates = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}};
  const std::vector<fm::index_t> nodes{0, 1, 2, 3, 4, 5};
  m.cells.add(fm::cell_type::prism, nodes, 1, 0);
  const auto piece = fm::vtk_piece(m);
  EXPECT_EQ(piece.types[0], fm::io::vtk_cell::wedge);
  EXPECT_EQ(piece.connectivity, (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5}));
  // Points are numbered in first-use order along VTK's order: 0, 2, 1, 3, 5, 4.
  EXPECT_EQ(piece.points[1], (std::array<double, 3>{0, 1, 0}));
}
