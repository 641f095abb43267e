// libFuzzer target: read_gmsh_bytes on any bytes. The reader dispatches on $MeshFormat
// itself, so one target reaches MSH 2.2 and 4.1, ASCII and binary (seeds of each in
// fuzz/corpus/gmsh_reader_fuzz). A mesh_read_error is the expected refusal; any other
// exception, a sanitizer report, or a mesh that breaks the invariants below is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>

#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/cell_type.hpp>
#include <funcmesh/partition/gmsh_reader.hpp>
#include <funcmesh/partition/mesh.hpp>
#include <funcmesh/partition/mesh_read_error.hpp>

namespace {

[[noreturn]] void broken(const char* what) {
  std::fprintf(stderr, "gmsh_reader_fuzz: accepted a mesh that breaks: %s\n", what);
  std::abort();
}

// What every mesh the reader returns must satisfy, so that later stages (faces, dual
// graph, partitioning) may index with its numbers unchecked.
void check_block(const funcmesh::mesh& m, const funcmesh::element_block& block,
                 int element_dimension) {
  const std::size_t n = block.types.size();
  if (block.offsets.size() != n + 1 || block.ids.size() != n || block.physical.size() != n) {
    broken("element block arrays of different lengths");
  }
  if (block.offsets.front() != 0 ||
      static_cast<std::size_t>(block.offsets.back()) != block.nodes.size()) {
    broken("element offsets do not span the node list");
  }
  for (std::size_t e = 0; e < n; ++e) {
    if (funcmesh::dimension_of(block.types[e]) != element_dimension) broken("element dimension");
    if (block.offsets[e + 1] - block.offsets[e] != funcmesh::node_count(block.types[e])) {
      broken("element node count");
    }
    if (block.ids[e] <= 0) broken("element tag not positive");
  }
  for (const funcmesh::index_t node : block.nodes) {
    if (node < 0 || static_cast<std::size_t>(node) >= m.coordinates.size()) {
      broken("node index out of range");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span bytes(reinterpret_cast<const std::byte*>(data), size);
  try {
    const funcmesh::mesh m = funcmesh::read_gmsh_bytes(bytes, "fuzz.msh");
    if (m.dimension != 2 && m.dimension != 3) broken("mesh dimension not 2 or 3");
    if (m.cells.types.empty()) broken("no cells");
    if (m.node_ids.size() != m.coordinates.size()) broken("node ids and coordinates differ");
    check_block(m, m.cells, m.dimension);
    check_block(m, m.boundary, m.dimension - 1);
  } catch (const funcmesh::mesh_read_error&) {
    // The refusal the reader promises for malformed input.
  }
  return 0;
}
