// Errors found in a mesh after reading (degenerate, tangled and repeated-node cells, a
// face of three cells) name the mesh's source (the file, or the built-in generator) and
// the cell by its Gmsh element tag, with its nodes by their tags: never an internal index.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/dual_graph.hpp>
#include <funcmesh/partition/geometry.hpp>
#include <funcmesh/partition/gmsh_reader.hpp>
#include <funcmesh/partition/mesh_faces.hpp>

namespace funcmesh::testing {

namespace {

namespace fs = std::filesystem;

// MSH 4.1 ASCII, 2-D: one node block and one triangle block, tags as given (sparse and
// out of order, so that a tag is never a cell's index + 1).
std::string msh41_triangles(const std::string& elements, int count) {
  return "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
         "$Nodes\n1 6 10 60\n2 1 0 6\n10\n20\n30\n40\n50\n60\n"
         "0 0 0\n1 0 0\n1 1 0\n0 1 0\n0.5 0 0\n0.5 -1 0\n$EndNodes\n"
         "$Elements\n1 " +
         std::to_string(count) + " 1 2000\n2 1 2 " + std::to_string(count) + "\n" + elements +
         "$EndElements\n";
}

// The same nodes in MSH 2.2 ASCII; elements are "tag type 2 physical entity nodes...".
std::string msh22(const std::string& elements, int count) {
  return "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
         "$Nodes\n6\n10 0 0 0\n20 1 0 0\n30 1 1 0\n40 0 1 0\n50 0.5 0 0\n60 0.5 -1 0\n"
         "$EndNodes\n$Elements\n" +
         std::to_string(count) + "\n" + elements + "$EndElements\n";
}

class mesh_errors : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("funcmesh_mesh_errors_" + std::to_string(::getpid()) + "_" + info->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }

  // Writes text to dir/name and returns the path.
  fs::path write(const std::string& name, const std::string& text) const {
    const fs::path file = dir_ / name;
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }

  fs::path dir_;
};

// What normalize_orientation says about the mesh ("" when it accepts it).
std::string orientation_error(mesh m) {
  try {
    normalize_orientation(m);
  } catch (const error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_F(mesh_errors, a_read_mesh_knows_its_file_and_keeps_element_tags) {
  const fs::path file = write("square.msh", msh41_triangles("7 10 20 30\n1001 10 30 40\n", 2));
  const mesh m = read_gmsh(file);
  EXPECT_EQ(m.source, file.string());
  EXPECT_TRUE(m.gmsh_tags);
  EXPECT_EQ(m.cells.ids, (std::vector<std::int64_t>{7, 1001}));
  EXPECT_EQ(m.cell_name(1), "element 1001");
  EXPECT_EQ(m.describe_cell(1), "element 1001 (triangle, nodes 10 30 40)");
  // Generated meshes say what generated them, and name cells by their 1-based ids.
  EXPECT_EQ(box2d_tri(4, 3).source, "built-in box2d-tri 4x3");
  EXPECT_EQ(box3d_hex(2, 3, 4).source, "built-in box3d-hex 2x3x4");
  EXPECT_EQ(box2d_quad(2, 2).cell_name(0), "cell 1");
  // A mesh built in code has no source: the message names the cell alone.
  EXPECT_EQ(mesh{}.where(), "");
}

TEST_F(mesh_errors, a_degenerate_element_is_named_by_file_and_tag_in_both_formats) {
  // Triangle 1001 has its three corners on the line y = 0.
  const fs::path v4 =
      write("degenerate41.msh", msh41_triangles("7 10 20 30\n1001 10 50 20\n8 10 30 40\n", 3));
  const fs::path v2 = write("degenerate22.msh", msh22("7 2 2 1 1 10 20 30\n1001 2 2 1 1 10 50 20\n"
                                                      "8 2 2 1 1 10 30 40\n",
                                                      3));
  for (const fs::path& file : {v4, v2}) {
    const std::string message = orientation_error(read_gmsh(file));
    EXPECT_EQ(message.rfind("funcmesh::normalize_orientation: " + file.string() +
                                ": element 1001 (triangle, nodes 10 50 20) has area 0: a "
                                "degenerate cell",
                            0),
              0u)
        << message;
  }
}

TEST_F(mesh_errors, inverted_elements_are_turned_silently_but_tangled_ones_are_named) {
  // 8 is clockwise: Gmsh writes a surface's cells in its curve loop's direction.
  const fs::path fine = write("clockwise.msh", msh41_triangles("7 10 20 30\n8 10 40 30\n", 2));
  EXPECT_EQ(orientation_error(read_gmsh(fine)), "");
  // Quad 77 is a bow tie whose halves have different areas, so the total is not 0.
  const fs::path file = write("bowtie.msh",
                              "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n"
                              "2 2 2 0\n3 2 0 0\n4 0 1 0\n$EndNodes\n$Elements\n1\n"
                              "77 3 2 1 1 1 2 3 4\n$EndElements\n");
  const std::string message = orientation_error(read_gmsh(file));
  EXPECT_NE(message.find(file.string() + ": element 77 (quad, nodes 1 2 3 4) has area"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("tangled"), std::string::npos) << message;
}

TEST_F(mesh_errors, a_repeated_node_is_a_degenerate_cell) {
  // A quad with a corner twice still has an area, but one of its edges has no length.
  const fs::path file = write("repeated.msh", msh22("33 3 2 1 1 10 20 30 30\n", 1));
  const std::string message = orientation_error(read_gmsh(file));
  EXPECT_EQ(message, "funcmesh::normalize_orientation: " + file.string() +
                         ": element 33 (quad, nodes 10 20 30 30) repeats node 30: a degenerate "
                         "cell (its corners must be distinct nodes)");
}

TEST_F(mesh_errors, a_degenerate_tetrahedron_names_its_tag_and_volume) {
  const std::string text =
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n5\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n"
      "5 1 1 0\n$EndNodes\n$Elements\n2\n16 4 2 1 1 1 2 3 4\n17 4 2 1 1 1 2 3 5\n$EndElements\n";
  const fs::path file = write("flat_tet.msh", text);
  const std::string message = orientation_error(read_gmsh(file));
  EXPECT_NE(message.find(file.string() +
                         ": element 17 (tetrahedron, nodes 1 2 3 5) has volume 0: a degenerate"),
            std::string::npos)
      << message;
}

TEST_F(mesh_errors, a_face_of_three_elements_names_the_file_the_nodes_and_the_tags) {
  // The edge 10-20 is a side of 7, 1001 and 12 (12 is clockwise: turned, not an error).
  const fs::path file =
      write("three_on_a_face.msh", msh41_triangles("7 10 20 30\n1001 20 10 60\n12 20 10 40\n", 3));
  mesh m = read_gmsh(file);
  normalize_orientation(m);
  const std::string tail =
      " is shared by elements 7, 1001 and 12: a mesh face joins at most two cells";
  try {
    dual_graph(m);
    ADD_FAILURE() << "dual_graph accepted a face of three cells";
  } catch (const error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(
                  "funcmesh::dual_graph: " + file.string() + ": the face of nodes 10 20" + tail, 0),
              0u)
        << e.what();
  }
  try {
    build_faces(m);
    ADD_FAILURE() << "build_faces accepted a face of three cells";
  } catch (const error& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("funcmesh::build_faces: " + file.string() + ": the face of nodes ", 0),
              0u)
        << message;
    EXPECT_NE(message.find(tail), std::string::npos) << message;
  }
}

TEST_F(mesh_errors, a_built_in_mesh_names_itself_and_the_cell) {
  // Cell 2 of two unit quads squashed flat: its right side moved onto its left one.
  mesh m = box2d_quad(2, 1);
  m.coordinates[2] = m.coordinates[1];
  m.coordinates[5] = m.coordinates[4];
  const std::string message = orientation_error(m);
  EXPECT_EQ(message.rfind("funcmesh::normalize_orientation: built-in box2d-quad 2x1: cell 2 "
                          "(quad, nodes 2 3 6 5) has area 0: a degenerate cell",
                          0),
            0u)
      << message;
}

}  // namespace funcmesh::testing
