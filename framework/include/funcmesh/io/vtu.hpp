// VTK XML writers with no MPI and no mesh type: one piece as a .vtu (binary, appended raw),
// the parallel index .pvtu that names the pieces, and the .pvd time-series collection.
// Every file is written to "<file>.part" and renamed, so a reader never sees half a file.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <funcmesh/io/unstructured_piece.hpp>

namespace funcmesh::io {

// Format: <AppendedData encoding="raw">, header_type="UInt64", little-endian: each array
// is an 8-byte byte count followed by the raw values. Points Float64 x 3, connectivity and
// offsets Int64, types UInt8, fields Float64 / Int32 / Int64. Raw rather than base64: the
// file is a third smaller and is written with one memcpy-like stream per array.
// Throws funcmesh::error naming the file when it cannot be written, or when a field's
// value count is not cells x components or its component count is outside 1..9.
void write_vtu(const std::filesystem::path& file, const unstructured_piece& piece,
               std::span<const cell_field> fields = {});

// How a field looks in the index files (no values).
struct field_layout {
  std::string name;
  int components = 1;
  std::string vtk_type;  // "Float64", "Int32" or "Int64"
};
std::vector<field_layout> layout_of(std::span<const cell_field> fields);

// The .pvtu naming `pieces` (paths as written into the file: relative to the .pvtu's
// directory). Points are declared Float64.
void write_pvtu(const std::filesystem::path& file, std::span<const std::string> pieces,
                std::span<const field_layout> fields);

struct pvd_entry {
  double time = 0;
  std::string file;  // relative to the .pvd's directory
};
void write_pvd(const std::filesystem::path& file, std::span<const pvd_entry> entries);

}  // namespace funcmesh::io
