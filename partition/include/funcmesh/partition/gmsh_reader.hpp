// Gmsh mesh readers: MSH 2.2 and 4.1, ASCII and binary, into a funcmesh::mesh. The byte
// reader is a pure function (no I/O), so it can be fuzzed; every malformed input gives a
// mesh_read_error naming the file, the position, the section and the rule broken.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/mesh.hpp>
#include <funcmesh/partition/mesh_read_error.hpp>

namespace funcmesh {

// Errors: mesh_read_error (funcmesh/core/error.hpp).

// Reads a Gmsh MSH 2.2 or 4.1 file (ASCII or binary, 8-byte data size, little or native
// endianness as marked). The mesh dimension is the highest element dimension present (2
// or 3); elements of that dimension become cells, elements one dimension lower become
// boundary elements, lower ones are dropped. Node references become 0-based indices;
// node and element tags are kept as ids. Physical groups: MSH 2.2 takes each element's
// first tag, MSH 4.1 the first physical tag of its entity. Cells are not reoriented.
// mesh::source is file_name (gmsh_tags set), for the errors of later checks.
// Throws mesh_read_error on anything malformed; never allocates from an unchecked count.
mesh read_gmsh_bytes(std::span<const std::byte> bytes, std::string_view file_name = "<memory>");

// Reads the whole file, then read_gmsh_bytes. A missing or unreadable file is a
// mesh_read_error naming it.
mesh read_gmsh(const std::filesystem::path& file);

// What read_gmsh_blocks knows before the first element block: the nodes (coordinates and
// tags), the mesh's dimension and physical groups, as read_gmsh would give them.
struct gmsh_header {
  int dimension = 0;
  std::vector<std::array<double, 3>> coordinates;
  std::vector<std::int64_t> node_ids;
  std::vector<physical_group> physical_groups;
  std::string source;
};

// Reads a Gmsh file without holding its elements: for converters whose memory must be the
// node array plus one block, not the mesh (funcmesh-partition --convert). The file is
// mapped and read twice: the first pass checks everything read_gmsh checks and keeps the
// nodes, then on_header is called; the second hands the elements over in file order, at
// most `block_elements` at a time, as read_gmsh would hold them after
// normalize_orientation: cells (element_dimension = dimension) oriented, boundary elements
// (dimension - 1); lower ones dropped. Concatenated, the blocks are read_gmsh's cells and
// boundary. Errors as read_gmsh's and normalize_orientation's (a repeated element tag is
// named at its first repetition in the file).
void read_gmsh_blocks(
    const std::filesystem::path& file, std::size_t block_elements,
    const std::function<void(const gmsh_header&)>& on_header,
    const std::function<void(const element_block&, int element_dimension)>& on_block);

}  // namespace funcmesh
