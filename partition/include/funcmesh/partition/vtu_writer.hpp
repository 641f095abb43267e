// write_vtu: a mesh and per-cell integer fields (the partition, ...) as a VTK XML
// unstructured grid (.vtu) for ParaView. Written to a temporary file and renamed, so a
// failed write never leaves a file that looks complete.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <funcmesh/partition/mesh.hpp>

namespace funcmesh {

struct cell_field {
  std::string name;
  std::span<const int> values;  // one per cell
};

// Throws funcmesh::error naming the file and the reason when it cannot be written, or
// when a field has the wrong length.
void write_vtu(const std::filesystem::path& file, const mesh& m,
               std::span<const cell_field> fields = {});

}  // namespace funcmesh
