// bench/fv's report: one section per mesh (times, memory, traffic, the check) and the
// closing goal lines, "name value  (goal <= target: PASS|MISS|SKIP; note)".
#include "bench_summary.hpp"

#include <cstdio>

namespace fv_bench {

namespace {

std::string mib(std::int64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return bytes < 0 ? std::string("n/a") : std::string(text);
}

// at_most: value <= target passes, else value >= target does.
void print_goal(const std::string& name, double value, const char* format, bool measured,
                bool at_most, double target, const std::string& note) {
  char text[32] = "n/a";
  if (measured) std::snprintf(text, sizeof text, format, value);
  const bool pass = at_most ? value <= target : value >= target;
  std::printf("%s %s  (goal %s %g: %s%s%s)\n", name.c_str(), text, at_most ? "<=" : ">=", target,
              !measured ? "SKIP" : (pass ? "PASS" : "MISS"), note.empty() ? "" : "; ",
              note.c_str());
}

double gb_per_s(double bytes_per_second) { return 1e-9 * bytes_per_second; }

}  // namespace

std::string load_average() {
  std::FILE* f = std::fopen("/proc/loadavg", "r");
  if (f == nullptr) return "n/a";
  double one = 0, five = 0, fifteen = 0;
  const int read = std::fscanf(f, "%lf %lf %lf", &one, &five, &fifteen);
  std::fclose(f);
  if (read != 3) return "n/a";
  char text[64];
  std::snprintf(text, sizeof text, "%.2f %.2f %.2f", one, five, fifteen);
  return text;
}

void print_mesh(const mesh_result& r) {
  const auto cells = static_cast<double>(r.cells);
  if (r.dimension == 2) {
    std::printf("== 2-D: box2d_tri(%lld, %lld), %lld triangles, perturbation 0.1\n",
                static_cast<long long>(r.n), static_cast<long long>(r.n),
                static_cast<long long>(r.cells));
  } else {
    std::printf("== 3-D: box3d_tet(%lld, %lld, %lld), %lld tetrahedra, perturbation 0.1\n",
                static_cast<long long>(r.n), static_cast<long long>(r.n),
                static_cast<long long>(r.n), static_cast<long long>(r.cells));
  }
  std::printf(
      "   how: rank 0 alone (a layout of MPI_COMM_SELF)%s; rounds of plain, fv%s, one "
      "SSP-RK2 step each (dt %.4g, fixed); medians\n",
      r.ranks > 1 ? ", the other ranks asleep" : "",
      r.ranks > 1 ? " (1 rank), fv (all ranks, after a barrier)" : "", r.dt);
  std::printf("   plain loops          : %9.2f ms per step\n", r.plain_ms);
  std::printf("   funcmesh fv, 1 rank  : %9.2f ms per step  (%.3f x plain)\n", r.fv_ms,
              r.fv_ms / r.plain_ms);
  if (r.fv_ranks_ms > 0) {
    std::printf("   funcmesh fv, %d ranks : %9.2f ms per step  (%.3f x 1 rank)\n", r.ranks,
                r.fv_ranks_ms, r.fv_ranks_ms / r.fv_ms);
  }
  std::printf(
      "   per pass, ms per step (means), fv / plain: gradient %.2f / %.2f, bounds %.2f / "
      "%.2f, limiter %.2f / %.2f, fluxes and stage result %.2f / %.2f\n",
      r.fv_pass_ms[0], r.plain_pass_ms[0], r.fv_pass_ms[1], r.plain_pass_ms[1], r.fv_pass_ms[2],
      r.plain_pass_ms[2], r.fv_pass_ms[3], r.plain_pass_ms[3]);
  std::printf(
      "   memory, rank 0: peak %s (%.0f bytes per cell) after fv's set-up and a step "
      "(resident then %s); peak %s with the plain arrays too\n",
      mib(r.peak_fv).c_str(), static_cast<double>(r.peak_fv) / cells, mib(r.resident_fv).c_str(),
      mib(r.peak_both).c_str());
  const double fv_rate = r.model_bytes / (1e-3 * r.fv_ms);
  const double plain_rate = r.model_bytes / (1e-3 * r.plain_ms);
  std::printf(
      "   traffic model: %.1f MB per step (%.0f bytes per cell): fv %.2f GB/s, plain "
      "%.2f GB/s, triad %.2f GB/s\n",
      1e-6 * r.model_bytes, r.model_bytes / cells, gb_per_s(fv_rate), gb_per_s(plain_rate),
      gb_per_s(r.triad));
  std::printf(
      "   check: max relative difference of u, fv against plain, after %d steps: %.3e "
      "(%s %g)\n\n",
      r.steps, r.max_relative_difference,
      r.max_relative_difference < tolerance ? "OK: below" : "FAILED: not below", tolerance);
}

void print_summary(const std::vector<mesh_result>& results, const std::string& executor,
                   const std::string& load_at_end) {
  std::printf("load average at end: %s\n", load_at_end.c_str());
  for (const mesh_result& r : results) {
    const std::string d = r.dimension == 2 ? "_2d" : "_3d";
    const auto cells = static_cast<double>(r.cells);
    std::printf("fv_ms_per_step%s %.2f  (plain %.2f; no goal)\n", d.c_str(), r.fv_ms, r.plain_ms);
    print_goal("fv_vs_plain_ratio" + d, r.fv_ms / r.plain_ms, "%.3f", true, true, goal_vs_plain,
               executor + " executor, 1 thread, medians");
    std::printf(
        "fv_bytes_per_cell%s %.0f  (peak resident of rank 0 after fv's set-up and a "
        "step, over %lld cells; no goal)\n",
        d.c_str(), static_cast<double>(r.peak_fv) / cells, static_cast<long long>(r.cells));
    print_goal("fv_2rank_vs_1rank" + d, r.ranks == 2 ? r.fv_ranks_ms / r.fv_ms : 0, "%.3f",
               r.ranks == 2, true, goal_2rank_vs_1rank,
               r.ranks == 2 ? "interleaved in this run" : "needs mpirun -np 2");
    const double fraction = r.model_bytes / (1e-3 * r.fv_ms) / r.triad;
    char note[96];
    std::snprintf(note, sizeof note, "%.2f of %.2f GB/s triad", gb_per_s(fraction * r.triad),
                  gb_per_s(r.triad));
    print_goal("fv_bandwidth_fraction" + d, fraction, "%.3f", true, false, goal_bandwidth_fraction,
               note);
    std::printf("fv_max_relative_difference%s %.3e  (must be < %g: %s)\n", d.c_str(),
                r.max_relative_difference, tolerance,
                r.max_relative_difference < tolerance ? "OK" : "FAILED");
  }
}

}  // namespace fv_bench
