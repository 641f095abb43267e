// Gmsh reader entry points: the section loop (any order, unknown sections skipped),
// $MeshFormat and $PhysicalNames (mesh_read_error's message: core/error.cpp). Section bodies:
// msh2.cpp, msh4.cpp.
#include <funcmesh/partition/gmsh_reader.hpp>
#include <funcmesh/partition/mesh_read_error.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include "cursor.hpp"
#include "raw_mesh.hpp"

namespace funcmesh {

namespace gmsh {

namespace {

void read_format(cursor& in, raw_mesh& raw) {
  const auto tokens = in.expect_tokens(3, "the format line (version file-type data-size)");
  const std::string_view version = tokens[0];
  const std::size_t at = in.offset_of(version);
  if (version == "2.2") {
    raw.version = 2;
  } else if (version == "4.1") {
    raw.version = 4;
  } else {
    in.fail_at(at, "unsupported MSH version " + cursor::quote(version) +
                       " (funcmesh reads 2.2 and 4.1; re-export with gmsh -format msh41)");
  }
  const int file_type = in.to_int(tokens[1], "file type");
  if (file_type != 0 && file_type != 1) {
    in.fail_at(at,
               "file type " + std::to_string(file_type) + " is neither 0 (ASCII) nor 1 (binary)");
  }
  const int data_size = in.to_int(tokens[2], "data size");
  if (data_size != 8) in.fail_at(at, "data size " + std::to_string(data_size) + " is not 8");
  if (file_type == 1) {
    in.set_binary(true);
    const std::size_t marker_at = in.offset();
    const auto marker = in.read<std::int32_t>("the endianness marker");
    if (marker == 0x01000000) {
      in.fail_at(marker_at, "binary data of the other endianness is not supported");
    }
    if (marker != 1) {
      in.fail_at(marker_at, "endianness marker is " + std::to_string(marker) + ", expected 1");
    }
  }
  in.expect_end("MeshFormat");
}

void read_physical_names(cursor& in, raw_mesh& raw) {
  const auto count_tokens = in.expect_tokens(1, "the physical name count line");
  const std::size_t at = in.offset_of(count_tokens[0]);
  const std::int64_t count = in.plausible(in.to_int64(count_tokens[0], "physical name count"), 7,
                                          "physical name count", at);
  raw.names.reserve(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) {
    const std::string_view line = in.expect_line("a physical name line");
    const auto tokens = in.split(line);
    const std::size_t line_at = in.offset_of(line);
    if (tokens.size() < 3) {
      in.fail_at(line_at, "expected 'dimension tag \"name\"', found " + cursor::quote(line));
    }
    physical_group group;
    group.dimension = in.to_int(tokens[0], "physical dimension");
    group.id = in.to_int(tokens[1], "physical tag");
    if (group.dimension < 0 || group.dimension > 3) {
      in.fail_at(line_at, "physical dimension " + std::to_string(group.dimension) + " is not 0..3");
    }
    const std::string_view rest = line.substr(in.offset_of(tokens[2]) - line_at);
    if (rest.size() < 2 || rest.front() != '"' || rest.back() != '"') {
      in.fail_at(line_at, "expected a quoted name, found " + cursor::quote(rest));
    }
    group.name = std::string(rest.substr(1, rest.size() - 2));
    raw.names.push_back(std::move(group));
  }
  in.expect_end("PhysicalNames");
}

// Marks a known section as read; a second copy is an error.
void first_time(cursor& in, bool& seen, std::size_t at) {
  if (seen) in.fail_at(at, "a second " + in.section() + " section");
  seen = true;
}

}  // namespace

void read_sections(cursor& in, raw_mesh& raw) {
  bool has_format = false;
  std::string_view line;
  while (true) {
    in.set_section("the top level");
    if (!in.next_line(line)) break;
    const std::size_t at = in.offset_of(line);
    if (line.front() != '$' || line.starts_with("$End")) {
      in.fail_at(at, "expected a section header such as $Nodes, found " + cursor::quote(line));
    }
    const std::string_view name = line.substr(1);
    in.set_section(line);
    if (name == "MeshFormat") {
      first_time(in, has_format, at);
      read_format(in, raw);
      continue;
    }
    const bool known = name == "Nodes" || name == "Elements" || name == "PhysicalNames" ||
                       (name == "Entities" && raw.version != 2);
    if (!known) {
      in.skip_section(name);
      continue;
    }
    if (!has_format) in.fail_at(at, "$MeshFormat must come before " + in.section());
    if (name == "Nodes") {
      first_time(in, raw.has_nodes, at);
      if (raw.skip_nodes) {
        in.skip_section(name);
      } else {
        raw.version == 2 ? read_msh2_nodes(in, raw) : read_msh4_nodes(in, raw);
      }
    } else if (name == "Elements") {
      first_time(in, raw.has_elements, at);
      raw.elements_offset = at;
      raw.version == 2 ? read_msh2_elements(in, raw) : read_msh4_elements(in, raw);
    } else if (name == "Entities") {
      first_time(in, raw.has_entities, at);
      read_msh4_entities(in, raw);
    } else {
      first_time(in, raw.has_names, at);
      read_physical_names(in, raw);
    }
  }
  if (!has_format) {
    in.fail_in("$MeshFormat", 0, "not a Gmsh mesh: the file has no $MeshFormat section");
  }
}

mesh read(std::span<const std::byte> bytes, std::string_view file_name) {
  cursor in(bytes, file_name);
  raw_mesh raw;
  read_sections(in, raw);
  mesh m = assemble(std::move(raw), in);
  // Errors found once the mesh is read (a degenerate cell, a face of three cells) name the
  // file and the element's tag, so that the user can find it in the file or in Gmsh.
  m.source = std::string(file_name);
  m.gmsh_tags = true;
  return m;
}

}  // namespace gmsh

mesh read_gmsh_bytes(std::span<const std::byte> bytes, std::string_view file_name) {
  return gmsh::read(bytes, file_name);
}

mesh read_gmsh(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) {
    throw mesh_read_error(
        file.string(), "", "",
        std::filesystem::exists(file, ec) ? "not a regular file" : "cannot open: no such file");
  }
  std::ifstream stream(file, std::ios::binary);
  if (!stream) {
    throw mesh_read_error(file.string(), "", "",
                          "cannot open: " + std::string(std::strerror(errno)));
  }
  std::vector<std::byte> bytes;
  const auto size = std::filesystem::file_size(file, ec);
  if (!ec) bytes.reserve(static_cast<std::size_t>(size));
  char buffer[1 << 16];
  while (stream.read(buffer, sizeof buffer) || stream.gcount() > 0) {
    const auto* begin = reinterpret_cast<const std::byte*>(buffer);
    bytes.insert(bytes.end(), begin, begin + stream.gcount());
  }
  if (stream.bad()) throw mesh_read_error(file.string(), "", "", "cannot read the file");
  return read_gmsh_bytes(bytes, file.string());
}

}  // namespace funcmesh
