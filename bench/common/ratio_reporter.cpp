// The ratio reporter and the shared benchmark main.
#include "ratio_reporter.hpp"

#include <funcmesh/app/program.hpp>

#include <algorithm>
#include <cstdio>
#include <string_view>
#include <tuple>

namespace funcmesh::bench {

namespace {
std::map<std::string, std::string>& baselines() {
  static std::map<std::string, std::string> table;
  return table;
}
}  // namespace

void compare_with(const std::string& group, const std::string& baseline) {
  baselines()[group] = baseline;
}

void ratio_reporter::ReportRuns(const std::vector<Run>& runs) {
  ConsoleReporter::ReportRuns(runs);
  for (const Run& run : runs) {
    if (run.run_type != Run::RT_Aggregate || run.aggregate_name != "median") continue;
    // run_name.str() is "group/variant/args..."; split off the group and variant.
    const std::string name = run.run_name.function_name;
    const auto first = name.find('/');
    if (first == std::string::npos) continue;
    median m;
    m.group = name.substr(0, first);
    m.variant = name.substr(first + 1);
    m.arguments = run.run_name.args;
    if (!run.run_name.threads.empty())
      m.arguments += (m.arguments.empty() ? "" : "/") + run.run_name.threads;
    m.seconds = run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit);
    if (auto it = run.counters.find("bytes_per_second"); it != run.counters.end())
      m.bytes_per_second = it->second.value;
    medians_.push_back(m);
  }
}

void ratio_reporter::Finalize() {
  ConsoleReporter::Finalize();
  if (medians_.empty()) return;
  // Group by group and arguments, the baseline first, so each block reads top-down.
  auto order = [](const median& m) {
    auto base = baselines().find(m.group);
    const bool is_base = base != baselines().end() && base->second == m.variant;
    return std::tuple(m.group, m.arguments, !is_base, m.variant);
  };
  std::sort(medians_.begin(), medians_.end(),
            [&](const median& a, const median& b) { return order(a) < order(b); });
  std::printf("\nmedians and ratios (variant time / baseline time; < 1 is faster)\n");
  std::printf("%-24s %-28s %-14s %14s %10s %12s\n", "group", "variant", "args", "median", "ratio",
              "GB/s");
  for (const median& m : medians_) {
    double ratio = 0;
    if (auto base = baselines().find(m.group); base != baselines().end()) {
      for (const median& b : medians_)
        if (b.group == m.group && b.variant == base->second && b.arguments == m.arguments)
          ratio = m.seconds / b.seconds;
    }
    char time[32];
    if (m.seconds < 1e-6)
      std::snprintf(time, sizeof time, "%.1f ns", m.seconds * 1e9);
    else if (m.seconds < 1e-3)
      std::snprintf(time, sizeof time, "%.2f us", m.seconds * 1e6);
    else
      std::snprintf(time, sizeof time, "%.3f ms", m.seconds * 1e3);
    char rate[32] = "";
    if (m.bytes_per_second > 0) std::snprintf(rate, sizeof rate, "%.2f", m.bytes_per_second / 1e9);
    char ratio_text[32] = "-";
    if (ratio > 0) std::snprintf(ratio_text, sizeof ratio_text, "%.3f", ratio);
    std::printf("%-24s %-28s %-14s %14s %10s %12s\n", m.group.c_str(), m.variant.c_str(),
                m.arguments.c_str(), time, ratio_text, rate);
  }
}

int run_benchmarks(int argc, char** argv, const std::string& name, const std::string& summary) {
  // The command line goes through CLI11 like every program's: --help, and Google
  // Benchmark's own --benchmark_* flags passed through as extras; anything else is a
  // mistake said in one line (exit 2).
  funcmesh::app::program args(name, summary +
                                        "\nGoogle Benchmark's --benchmark_* flags pass through "
                                        "(--benchmark_filter=REGEX, --benchmark_repetitions=N, "
                                        "...); later flags win over the defaults (7 "
                                        "repetitions, interleaved, medians only).");
  args.cli().allow_extras();
  if (const auto code = args.parse_or_exit_code(argc, argv)) return *code;
  std::vector<std::string> extras = args.cli().remaining();
  for (const std::string& extra : extras) {
    if (!extra.starts_with("--benchmark_")) {
      std::fprintf(stderr, "%s: unknown option %s (see --help)\n", name.c_str(), extra.c_str());
      return 2;
    }
  }
  std::vector<std::string> flags{name, "--benchmark_repetitions=7",
                                 "--benchmark_enable_random_interleaving=true",
                                 "--benchmark_report_aggregates_only=true"};
  flags.insert(flags.end(), extras.begin(), extras.end());
  std::vector<char*> arguments;
  for (std::string& flag : flags) arguments.push_back(flag.data());
  int count = static_cast<int>(arguments.size());
  benchmark::Initialize(&count, arguments.data());
  if (benchmark::ReportUnrecognizedArguments(count, arguments.data())) return 2;
  ratio_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}

}  // namespace funcmesh::bench
