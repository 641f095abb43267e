// bench/fv's figures: what one mesh's run measured, its section of the report and the
// closing table of goals (PASS/MISS/SKIP), in the style of bench/euler's summary.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fv_bench {

// The largest relative difference of u allowed between the two versions: round-off only.
inline constexpr double tolerance = 1e-12;

// Goals (issue: bench/fv).
inline constexpr double goal_vs_plain = 1.1;            // fv / plain, 1 core
inline constexpr double goal_2rank_vs_1rank = 0.55;     // fv on 2 ranks / fv on 1
inline constexpr double goal_bandwidth_fraction = 0.6;  // model bytes / time / triad

struct mesh_result {
  int dimension = 2;
  std::int64_t n = 0;      // cells per direction of the generator
  std::int64_t cells = 0;  // the mesh's
  int ranks = 1;
  int steps = 0;  // each version's, warm-up included, before the check
  double dt = 0;
  double plain_ms = 0, fv_ms = 0;
  double fv_ranks_ms = 0;  // every rank (0: one rank only)
  // ms per step in gradient, bounds, limiter, fluxes with the stage's result (means over
  // the rounds, rank 0 alone).
  std::array<double, 4> fv_pass_ms{}, plain_pass_ms{};
  std::int64_t peak_fv = -1, resident_fv = -1, peak_both = -1;  // bytes, rank 0
  double model_bytes = 0;                                       // per step
  double triad = 0;                                             // bytes per second
  double max_relative_difference = 0;
};

// The 1-minute, 5-minute and 15-minute load averages ("n/a" without /proc/loadavg).
std::string load_average();

void print_mesh(const mesh_result& r);
void print_summary(const std::vector<mesh_result>& results, const std::string& executor,
                   const std::string& load_at_end);

}  // namespace fv_bench
