// --convert: the whole .msh read (the Gmsh readers parse a whole file), then written block
// by block; the peak resident memory printed is what a cluster's front end must hold.
#include "mesh_convert.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
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
  const auto start = std::chrono::steady_clock::now();
  mesh m = read_gmsh(in);
  normalize_orientation(m);
  const double read_seconds = seconds_since(start);
  const auto write_start = std::chrono::steady_clock::now();
  mesh_file_writer writer(out, m.dimension, m.coordinates, m.node_ids, m.physical_groups, m.source,
                          m.gmsh_tags);
  writer.add_elements(m.cells, m.dimension);
  writer.add_elements(m.boundary, m.dimension - 1);
  writer.finish();
  std::printf(
      "wrote %s: %lld cells, %lld boundary elements, %lld nodes, %d-D "
      "(read %.3f s, write %.3f s, peak resident memory %s)\n",
      out.string().c_str(), static_cast<long long>(writer.cells_written()),
      static_cast<long long>(writer.boundary_written()), static_cast<long long>(m.node_count()),
      m.dimension, read_seconds, seconds_since(write_start), peak_resident_memory().c_str());
}

}  // namespace funcmesh::tools
