// Cell type tables: Gmsh numbers, node counts and outward-oriented faces in Gmsh's local
// node order (see cell_type.hpp).
#include <funcmesh/partition/cell_type.hpp>

#include <array>
#include <string>

#include <funcmesh/core/error.hpp>

namespace funcmesh {

namespace {

struct face_table {
  int count;
  std::array<std::array<std::uint8_t, 4>, 6> nodes;
  std::array<std::uint8_t, 6> sizes;
};

// Faces whose right-hand normal points out of a positively oriented cell. 2-D: the edges
// of a counter-clockwise polygon, in order.
const face_table& table(cell_type type) {
  static const face_table point{0, {}, {}};
  static const face_table line{2, {{{0}, {1}}}, {1, 1}};
  static const face_table triangle{3, {{{0, 1}, {1, 2}, {2, 0}}}, {2, 2, 2}};
  static const face_table quad{4, {{{0, 1}, {1, 2}, {2, 3}, {3, 0}}}, {2, 2, 2, 2}};
  static const face_table tetrahedron{
      4, {{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}}}, {3, 3, 3, 3}};
  static const face_table hexahedron{
      6,
      {{{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}}},
      {4, 4, 4, 4, 4, 4}};
  static const face_table prism{
      5, {{{0, 2, 1}, {3, 4, 5}, {0, 1, 4, 3}, {1, 2, 5, 4}, {2, 0, 3, 5}}}, {3, 3, 4, 4, 4}};
  static const face_table pyramid{
      5, {{{0, 3, 2, 1}, {0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 0, 4}}}, {4, 3, 3, 3, 3}};
  switch (type) {
    case cell_type::point:
      return point;
    case cell_type::line:
      return line;
    case cell_type::triangle:
      return triangle;
    case cell_type::quad:
      return quad;
    case cell_type::tetrahedron:
      return tetrahedron;
    case cell_type::hexahedron:
      return hexahedron;
    case cell_type::prism:
      return prism;
    case cell_type::pyramid:
      return pyramid;
  }
  throw error("funcmesh::cell_type: unknown cell type " + std::to_string(static_cast<int>(type)));
}

}  // namespace

int dimension_of(cell_type type) {
  switch (type) {
    case cell_type::point:
      return 0;
    case cell_type::line:
      return 1;
    case cell_type::triangle:
    case cell_type::quad:
      return 2;
    default:
      return 3;
  }
}

int node_count(cell_type type) {
  switch (type) {
    case cell_type::point:
      return 1;
    case cell_type::line:
      return 2;
    case cell_type::triangle:
      return 3;
    case cell_type::quad:
    case cell_type::tetrahedron:
      return 4;
    case cell_type::hexahedron:
      return 8;
    case cell_type::prism:
      return 6;
    case cell_type::pyramid:
      return 5;
  }
  return 0;
}

std::string_view name_of(cell_type type) {
  constexpr std::string_view names[] = {"point",       "line",       "triangle", "quad",
                                        "tetrahedron", "hexahedron", "prism",    "pyramid"};
  return names[static_cast<int>(type)];
}

int gmsh_type(cell_type type) {
  constexpr int numbers[] = {15, 1, 2, 3, 4, 5, 6, 7};
  return numbers[static_cast<int>(type)];
}

bool from_gmsh_type(int gmsh, cell_type& type) {
  switch (gmsh) {
    case 15:
      type = cell_type::point;
      return true;
    case 1:
    case 2:
    case 3:
    case 4:
    case 5:
    case 6:
    case 7:
      type = static_cast<cell_type>(gmsh);
      return true;
    default:
      return false;
  }
}

int face_count(cell_type type) { return table(type).count; }

std::span<const std::uint8_t> face_nodes(cell_type type, int face) {
  const face_table& t = table(type);
  return {t.nodes[static_cast<std::size_t>(face)].data(), t.sizes[static_cast<std::size_t>(face)]};
}

cell_type face_type(cell_type type, int face) {
  switch (face_nodes(type, face).size()) {
    case 1:
      return cell_type::point;
    case 2:
      return cell_type::line;
    case 3:
      return cell_type::triangle;
    default:
      return cell_type::quad;
  }
}

}  // namespace funcmesh
