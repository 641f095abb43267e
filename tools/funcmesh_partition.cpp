// funcmesh-partition: read a Gmsh mesh (or generate a built-in one), split it into N parts
// with METIS or the geometric partitioner, print the partition's metrics, and write the
// partition as a .vtu file (cell data "part") for ParaView.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <funcmesh/partition.hpp>

namespace fm = funcmesh;

namespace {

const char* const help_text =
    "usage: funcmesh-partition (--mesh FILE.msh | --generate NAME [--cells N]) --parts N\n"
    "                          [options]\n"
    "\n"
    "Splits a mesh into N parts and prints edge cut, imbalance, halo/owned ratio,\n"
    "neighbours per part and communication volume; writes the partition to a .vtu file.\n"
    "\n"
    "  --mesh FILE        a Gmsh .msh file (MSH 2.2 or 4.1, ASCII or binary)\n"
    "  --generate NAME    a built-in mesh: box2d-tri, box2d-quad, box3d-hex, box3d-tet\n"
    "  --cells N          approximate cell count of the generated mesh (default 100000)\n"
    "  --perturb F        move interior nodes of the generated mesh randomly by up to F\n"
    "                     times the cell size (default 0)\n"
    "  --parts N          number of parts (required)\n"
    "  --method M         kway (default), recursive or geometric\n"
    "  --objective O      cut (default) or volume (METIS communication volume)\n"
    "  --imbalance X      largest part / mean part allowed (default 1.03)\n"
    "  --seed S           METIS seed (default: METIS's own)\n"
    "  --contiguous       ask METIS for contiguous parts\n"
    "  --adjacency A      face (default) or node: which cells are neighbours\n"
    "  --output FILE      the .vtu file to write (default partition.vtu)\n"
    "  --no-output        write no file\n"
    "  --help             this text";

struct options {
  std::string mesh_file;
  std::string generate;
  fm::index_t cells = 100000;
  double perturb = 0;
  int parts = 0;
  fm::partition_options partitioning;
  std::string output = "partition.vtu";
  bool write = true;
};

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "funcmesh-partition: %s (see --help)\n", message.c_str());
  std::exit(2);
}

long long parse_integer(std::string_view flag, const std::string& text, long long low) {
  std::size_t used = 0;
  long long value = 0;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || value < low) {
    usage_error(std::string(flag) + ": '" + text + "' is not an integer >= " + std::to_string(low));
  }
  return value;
}

double parse_number(std::string_view flag, const std::string& text, double low) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !(value >= low)) {
    usage_error(std::string(flag) + ": '" + text + "' is not a number >= " + std::to_string(low));
  }
  return value;
}

options parse(int argc, char** argv) {
  options chosen;
  for (int k = 1; k < argc; ++k) {
    const std::string_view flag = argv[k];
    if (flag == "--help" || flag == "-h") {
      std::puts(help_text);
      std::exit(0);
    }
    if (flag == "--contiguous") {
      chosen.partitioning.contiguous = true;
      continue;
    }
    if (flag == "--no-output") {
      chosen.write = false;
      continue;
    }
    if (k + 1 >= argc) usage_error(std::string(flag) + " needs a value");
    const std::string value = argv[++k];
    if (flag == "--mesh") {
      chosen.mesh_file = value;
    } else if (flag == "--generate") {
      chosen.generate = value;
    } else if (flag == "--cells") {
      chosen.cells = parse_integer(flag, value, 1);
    } else if (flag == "--perturb") {
      chosen.perturb = parse_number(flag, value, 0.0);
    } else if (flag == "--parts") {
      chosen.parts = static_cast<int>(parse_integer(flag, value, 1));
    } else if (flag == "--method") {
      if (value == "kway") {
        chosen.partitioning.method = fm::partition_method::metis_kway;
      } else if (value == "recursive") {
        chosen.partitioning.method = fm::partition_method::metis_recursive;
      } else if (value == "geometric") {
        chosen.partitioning.method = fm::partition_method::geometric;
      } else {
        usage_error("--method: '" + value + "' is not kway, recursive or geometric");
      }
    } else if (flag == "--objective") {
      if (value == "cut") {
        chosen.partitioning.objective = fm::partition_objective::edge_cut;
      } else if (value == "volume") {
        chosen.partitioning.objective = fm::partition_objective::communication_volume;
      } else {
        usage_error("--objective: '" + value + "' is not cut or volume");
      }
    } else if (flag == "--imbalance") {
      chosen.partitioning.imbalance = parse_number(flag, value, 1.0);
    } else if (flag == "--seed") {
      chosen.partitioning.seed = static_cast<int>(parse_integer(flag, value, 0));
    } else if (flag == "--adjacency") {
      if (value == "face") {
        chosen.partitioning.by = fm::adjacency::face;
      } else if (value == "node") {
        chosen.partitioning.by = fm::adjacency::node;
      } else {
        usage_error("--adjacency: '" + value + "' is not face or node");
      }
    } else if (flag == "--output") {
      chosen.output = value;
    } else {
      usage_error("unknown option " + std::string(flag));
    }
  }
  if (chosen.mesh_file.empty() == chosen.generate.empty()) {
    usage_error("give exactly one of --mesh FILE and --generate NAME");
  }
  if (chosen.parts < 1) usage_error("--parts N is required");
  return chosen;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const options chosen = parse(argc, argv);
  try {
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

    if (chosen.write) {
      const fm::cell_field fields[] = {{"part", part}};
      fm::write_vtu(chosen.output, m, fields);
      std::printf("wrote %s (cell data 'part')\n", chosen.output.c_str());
    }
    return 0;
  } catch (const std::exception& failure) {
    std::fprintf(stderr, "funcmesh-partition: %s\n", failure.what());
    return 1;
  }
}
