// funcmesh-partition: read a Gmsh mesh (or generate a built-in one), split it into N parts
// with METIS or the geometric partitioner, print the partition's metrics, and write the
// partition as a .vtu file (cell data "part") for ParaView. --convert IN.msh OUT.h5 writes
// a funcmesh mesh file instead (mesh_convert.hpp).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <funcmesh/app.hpp>
#include <funcmesh/io/vtu.hpp>
#include <funcmesh/partition.hpp>
#include <funcmesh/partition/vtk_piece.hpp>

#include "mesh_convert.hpp"

namespace fm = funcmesh;

namespace {

struct options {
  std::string mesh_file;
  std::string generate;
  fm::index_t cells = 100000;
  double perturb = 0;
  int parts = 0;
  fm::partition_options partitioning;
  std::string output = "partition.vtu";
  bool no_output = false;
  std::string method = "kway";
  std::string objective = "cut";
  std::string adjacency = "face";
  std::vector<std::string> convert;  // IN.msh OUT.h5, or empty
};

// The command line (funcmesh::app::program); false after --help. Exits 2 with one line
// on a mistake.
bool parse(int argc, char** argv, options& chosen) {
  fm::app::program args("funcmesh-partition",
                        "Splits a mesh into N parts and prints edge cut, imbalance, halo/owned "
                        "ratio, neighbours per part and communication volume; writes the "
                        "partition to a .vtu file (cell data \"part\").");
  auto* mesh =
      args.option("mesh", chosen.mesh_file, "a Gmsh .msh file (MSH 2.2 or 4.1, ASCII or binary)");
  auto* generate =
      args.option("generate", chosen.generate, "a built-in mesh")
          ->check(CLI::IsMember({"box2d-tri", "box2d-quad", "box3d-hex", "box3d-tet"}));
  mesh->excludes(generate);
  args.option("cells", chosen.cells, "approximate cell count of the generated mesh")
      ->check(CLI::Range(fm::index_t{1}, std::numeric_limits<fm::index_t>::max()));
  args.option("perturb", chosen.perturb,
              "move interior nodes of the generated mesh randomly by up to this fraction of "
              "the cell size")
      ->check(CLI::Range(0.0, 0.5));
  auto* convert = args.option("convert", chosen.convert,
                              "IN.msh OUT.h5: write the Gmsh mesh IN as a funcmesh mesh file "
                              "(HDF5, read in parallel; docs/meshes.md) and stop")
                      ->expected(2);
  convert->excludes(mesh)->excludes(generate);
  auto* parts = args.option("parts", chosen.parts, "number of parts (required unless --convert)")
                    ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  convert->excludes(parts);
  args.option("method", chosen.method, "METIS k-way, METIS recursive bisection or geometric")
      ->check(CLI::IsMember({"kway", "recursive", "geometric"}));
  args.option("objective", chosen.objective, "edge cut or METIS communication volume")
      ->check(CLI::IsMember({"cut", "volume"}));
  args.option("imbalance", chosen.partitioning.imbalance, "largest part / mean part allowed")
      ->check(CLI::Range(1.0, 100.0));
  args.option("seed", chosen.partitioning.seed, "METIS seed (-1: METIS's own)");
  args.flag("contiguous", chosen.partitioning.contiguous, "ask METIS for contiguous parts");
  args.option("adjacency", chosen.adjacency, "which cells are neighbours")
      ->check(CLI::IsMember({"face", "node"}));
  args.option("output", chosen.output, "the .vtu file to write");
  args.flag("no-output", chosen.no_output, "write no file");
  try {
    if (!args.parse(argc, argv)) return false;
    if (!chosen.convert.empty()) return true;
    if (chosen.parts == 0) {
      throw fm::app::usage_error("funcmesh-partition: --parts is required (see --help)");
    }
    if (chosen.mesh_file.empty() == chosen.generate.empty()) {
      throw fm::app::usage_error(
          "funcmesh-partition: give exactly one of --mesh FILE and --generate NAME (see --help)");
    }
  } catch (const fm::app::usage_error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    std::exit(2);
  }
  fm::partition_options& p = chosen.partitioning;
  p.method = chosen.method == "kway"        ? fm::partition_method::metis_kway
             : chosen.method == "recursive" ? fm::partition_method::metis_recursive
                                            : fm::partition_method::geometric;
  p.objective = chosen.objective == "cut" ? fm::partition_objective::edge_cut
                                          : fm::partition_objective::communication_volume;
  p.by = chosen.adjacency == "face" ? fm::adjacency::face : fm::adjacency::node;
  return true;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  options chosen;
  if (!parse(argc, argv, chosen)) return 0;
  try {
    if (!chosen.convert.empty()) {
      fm::tools::convert_mesh(chosen.convert[0], chosen.convert[1]);
      return 0;
    }
    auto start = std::chrono::steady_clock::now();
    fm::mesh m;
    if (!chosen.mesh_file.empty()) {
      m = fm::read_gmsh(chosen.mesh_file);
      fm::normalize_orientation(m);
    } else {
      fm::box_options box;
      box.perturbation = chosen.perturb;
      m = fm::builtin_mesh(chosen.generate, chosen.cells, box);
    }
    std::printf("mesh: %s, %lld cells, %lld nodes, %d-D (%.3f s)\n",
                chosen.mesh_file.empty() ? chosen.generate.c_str() : chosen.mesh_file.c_str(),
                static_cast<long long>(m.cell_count()), static_cast<long long>(m.node_count()),
                m.dimension, seconds_since(start));

    start = std::chrono::steady_clock::now();
    const fm::graph g = fm::dual_graph(m, chosen.partitioning.by);
    const double graph_seconds = seconds_since(start);
    start = std::chrono::steady_clock::now();
    const std::vector<int> part = chosen.partitioning.method == fm::partition_method::geometric
                                      ? fm::partition_mesh(m, chosen.parts, chosen.partitioning)
                                      : fm::partition_graph(g, chosen.parts, chosen.partitioning);
    std::printf("partition: %d parts (dual graph %.3f s, partitioning %.3f s)\n", chosen.parts,
                graph_seconds, seconds_since(start));
    std::printf("%s", fm::describe(fm::measure_partition(g, part, chosen.parts)).c_str());

    if (!chosen.no_output) {
      const fm::io::cell_field fields[] = {
          fm::io::scalar_field("part", std::span<const std::int32_t>(part))};
      fm::io::write_vtu(chosen.output, fm::vtk_piece(m), fields);
      std::printf("wrote %s (cell data 'part')\n", chosen.output.c_str());
    }
    return 0;
  } catch (const std::exception& failure) {
    std::fprintf(stderr, "funcmesh-partition: %s\n", failure.what());
    return 1;
  }
}
