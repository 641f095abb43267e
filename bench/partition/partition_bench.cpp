// The partitioning pipeline on a tetrahedral box of about 1M cells: generate, dual graph,
// METIS k-way into 64 parts, local meshes with halos; the time and peak memory of each
// phase, the share of the pipeline spent inside METIS, and METIS's edge cut against the
// geometric partitioner's on the same mesh.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <funcmesh/app.hpp>
#include <funcmesh/partition.hpp>

namespace fm = funcmesh;

namespace {

const char* const summary =
    "Generates a box of tetrahedra, builds its dual graph, partitions it with METIS k-way "
    "and builds every part's local mesh. Prints each phase's time and peak memory, then "
    "partition_seconds, partition_overhead_ratio (pipeline / METIS; goal <= 1.5) and, last, "
    "edgecut_ratio_vs_geometric (METIS edge cut / geometric partitioner's).";

// Peak resident memory so far, in MB (VmHWM), from /proc.
double peak_megabytes() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmHWM:") {
      double kilobytes = 0;
      status >> kilobytes;
      return kilobytes / 1024.0;
    }
    std::getline(status, key);
  }
  return 0;
}

struct phase {
  const char* name;
  double seconds;
  double peak_mb;
};

template <class Work>
auto timed(std::vector<phase>& phases, const char* name, Work&& work) {
  const auto start = std::chrono::steady_clock::now();
  auto result = work();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  phases.push_back({name, seconds, peak_megabytes()});
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  fm::index_t cells = 1000000;
  int parts = 64;
  fm::app::program args("partition_bench", summary);
  args.option("size", cells, "cells of the box")
      ->check(CLI::Range(fm::index_t{1}, std::numeric_limits<fm::index_t>::max()));
  args.option("parts", parts, "METIS parts")->check(CLI::Range(1, 1 << 24));
  if (const auto code = args.parse_or_exit_code(argc, argv)) return *code;
  try {
    std::vector<phase> phases;
    const fm::mesh m =
        timed(phases, "generate box3d-tet", [&] { return fm::builtin_mesh("box3d-tet", cells); });
    const fm::graph g = timed(phases, "dual graph", [&] { return fm::dual_graph(m); });
    const std::vector<int> part = timed(phases, "METIS k-way", [&] {
      return fm::partition_graph(g, parts, fm::partition_options{});
    });
    const auto locals = timed(phases, "local meshes (depth 1)", [&] {
      return fm::build_local_meshes(m, g, part, parts, fm::halo_options{});
    });
    const std::vector<int> geometric = timed(phases, "geometric (for comparison)", [&] {
      fm::partition_options rcb;
      rcb.method = fm::partition_method::geometric;
      return fm::partition_mesh(m, parts, rcb);
    });

    std::printf("partition pipeline: %lld tetrahedra, %lld nodes, %d parts\n\n",
                static_cast<long long>(m.cell_count()), static_cast<long long>(m.node_count()),
                parts);
    std::printf("%-28s %10s %14s\n", "phase", "seconds", "peak MB so far");
    double pipeline = 0;
    double metis = 0;
    for (std::size_t k = 0; k < phases.size(); ++k) {
      std::printf("%-28s %10.3f %14.1f\n", phases[k].name, phases[k].seconds, phases[k].peak_mb);
      if (k < 4) pipeline += phases[k].seconds;
      if (k == 2) metis = phases[k].seconds;
    }
    const auto metis_metrics = fm::measure_partition(g, part, parts);
    const auto geometric_metrics = fm::measure_partition(g, geometric, parts);
    std::printf("\nMETIS k-way:\n%s", fm::describe(metis_metrics).c_str());
    std::printf("geometric:\n%s", fm::describe(geometric_metrics).c_str());
    fm::index_t halo = 0;
    for (const auto& local : locals) halo += local.cells.cell_count() - local.owned_count;
    std::printf("local meshes: %zu, halo cells in all %lld\n\n", locals.size(),
                static_cast<long long>(halo));
    std::printf("partition_seconds %.3f\n", pipeline);
    std::printf("partition_overhead_ratio %.3f\n", pipeline / metis);
    std::printf("edgecut_ratio_vs_geometric %.3f\n",
                static_cast<double>(metis_metrics.edge_cut) /
                    static_cast<double>(geometric_metrics.edge_cut));
    return 0;
  } catch (const std::exception& failure) {
    std::fprintf(stderr, "partition_bench: %s\n", failure.what());
    return 1;
  }
}
