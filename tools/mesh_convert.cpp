// --convert: the .msh streamed (read_gmsh_blocks: the node array and one block of elements
// at a time), each block written as it comes; the peak resident memory printed is what a
// cluster's front end must hold.
#include "mesh_convert.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

#include <funcmesh/comm/mesh_file.hpp>
#include <funcmesh/partition/geometry.hpp>
#include <funcmesh/partition/gmsh_reader.hpp>

namespace funcmesh::tools {

namespace {

// VmHWM from /proc/self/status ("?" where there is none).
std::string peak_resident_memory() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) {
      const std::size_t start = line.find_first_not_of(" \t", 6);
      return start == std::string::npos ? "?" : line.substr(start);
    }
  }
  return "?";
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

void convert_mesh(const std::filesystem::path& in, const std::filesystem::path& out) {
  // A block: about 15 MiB of parsed elements and as much again of the block handed over.
  constexpr std::size_t block_elements = std::size_t{1} << 18;
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<mesh_file_writer> writer;
  index_t nodes = 0;
  int dimension = 0;
  read_gmsh_blocks(
      in, block_elements,
      [&](const gmsh_header& header) {
        writer = std::make_unique<mesh_file_writer>(out, header.dimension, header.coordinates,
                                                    header.node_ids, header.physical_groups,
                                                    header.source, true);
        nodes = static_cast<index_t>(header.coordinates.size());
        dimension = header.dimension;
      },
      [&](const element_block& block, int element_dimension) {
        writer->add_elements(block, element_dimension);
      });
  writer->finish();
  std::printf(
      "wrote %s: %lld cells, %lld boundary elements, %lld nodes, %d-D "
      "(%.3f s, streamed in blocks of %zu elements, peak resident memory %s)\n",
      out.string().c_str(), static_cast<long long>(writer->cells_written()),
      static_cast<long long>(writer->boundary_written()), static_cast<long long>(nodes), dimension,
      seconds_since(start), block_elements, peak_resident_memory().c_str());
}

}  // namespace funcmesh::tools
