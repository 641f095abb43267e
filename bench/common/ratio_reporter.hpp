// Benchmark support shared by funcmesh's benchmarks: Google Benchmark runs every
// variant back to back in one process, interleaved and repeated; this reporter prints
// each variant's median and its ratio to the group's baseline.
#pragma once

#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <vector>

namespace funcmesh::bench {

// Declares that benchmarks named "<group>/<variant>[/args]" are compared with
// "<group>/<baseline>[/same args]". Call before main runs (from a static initializer)
// or from main before running.
void compare_with(const std::string& group, const std::string& baseline);

// Console output as usual, then one summary table of medians and ratios.
class ratio_reporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

 private:
  struct median {
    std::string group, variant, arguments;
    double seconds = 0;  // real time per iteration
    double bytes_per_second = 0;
  };
  std::vector<median> medians_;
};

// The shared main: the command line through funcmesh::app::program (--help; Google
// Benchmark's --benchmark_* flags pass through as CLI11 extras, anything else exits 2),
// repetitions, interleaving and aggregate-only output by default (the flags override
// them), then the ratio table.
int run_benchmarks(int argc, char** argv, const std::string& name, const std::string& summary);

}  // namespace funcmesh::bench
