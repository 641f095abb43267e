// Gmsh mesh readers: MSH 2.2 and 4.1, ASCII and binary, into a funcmesh::mesh. The byte
// reader is a pure function (no I/O), so it can be fuzzed; every malformed input gives a
// mesh_read_error naming the file, the position, the section and the rule broken.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/mesh.hpp>

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

}  // namespace funcmesh
