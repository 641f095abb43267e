// plain_airfoil: the plain-loop Airfoil reference on the built-in classic grid. Prints
// the rms every 100 iterations and the time per iteration; the classic check is
// `plain_airfoil --i 400 --j 600 --iterations 100` printing "100 5.02186e-04".
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>

#include <funcmesh/partition/airfoil_grid.hpp>

#include "plain_airfoil.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace {

constexpr const char* usage =
    "usage: plain_airfoil [--i N] [--j N] [--iterations N] [--threads N] [--precise]\n"
    "                     [--float-constants] [--unrounded]\n"
    "The Airfoil algorithm as plain loops on the classic C-grid of 3 i j cells.\n"
    "  --i N           cells along the airfoil (default 400)\n"
    "  --j N           cells towards the far field (default 600)\n"
    "  --iterations N  iterations (default 1000); rms printed every 100\n"
    "  --threads N     OpenMP threads for adt and update (default: OpenMP's)\n"
    "  --precise       print the rms as %.12e instead of %10.5e\n"
    "  --float-constants  gam = 1.4f, cfl = 0.9f, eps = 0.05f, mach = 0.4f widened to\n"
    "                  double, as the original code: reproduces the published\n"
    "                  1.060114637578e-04 at iteration 1000 to 13 digits\n"
    "  --unrounded     full-precision node coordinates, not the file's 6 decimals\n";

long parse_count(const char* option, const char* text, long minimum) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < minimum) {
    throw std::runtime_error(std::string(option) + ": expected an integer >= " +
                             std::to_string(minimum) + ", got '" + text + "'");
  }
  return value;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    funcmesh::airfoil_options grid_options;
    grid_options.i = 400;
    grid_options.j = 600;
    long iterations = 1000;
    plain_airfoil_options options;
    for (int a = 1; a < argc; ++a) {
      const std::string arg = argv[a];
      auto value = [&]() -> const char* {
        if (a + 1 >= argc) throw std::runtime_error(arg + " needs a value");
        return argv[++a];
      };
      if (arg == "--help" || arg == "-h") {
        std::fputs(usage, stdout);
        return 0;
      } else if (arg == "--i") {
        grid_options.i = parse_count("--i", value(), 2);
      } else if (arg == "--j") {
        grid_options.j = parse_count("--j", value(), 1);
      } else if (arg == "--iterations") {
        iterations = parse_count("--iterations", value(), 0);
      } else if (arg == "--threads") {
        options.threads = static_cast<int>(parse_count("--threads", value(), 0));
      } else if (arg == "--precise") {
        options.precise = true;
      } else if (arg == "--float-constants") {
        options.float_constants = true;
      } else if (arg == "--unrounded") {
        grid_options.round_to_file_precision = false;
      } else {
        std::fprintf(stderr, "plain_airfoil: unknown option '%s'\n%s", arg.c_str(), usage);
        return 2;
      }
    }
    const funcmesh::mesh grid = funcmesh::airfoil_grid(grid_options);
#if defined(_OPENMP)
    const int used = options.threads > 0 ? options.threads : omp_get_max_threads();
#else
    const int used = 1;
#endif
    std::printf("plain_airfoil: i = %lld, j = %lld, %lld cells, %d threads\n",
                static_cast<long long>(grid_options.i), static_cast<long long>(grid_options.j),
                static_cast<long long>(grid.cell_count()), used);
    const plain_airfoil_result result =
        run_plain_airfoil(grid, static_cast<int>(iterations), stdout, options);
    std::printf("plain_ms_per_iter %.3f\n", 1e3 * result.seconds_per_iteration);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "plain_airfoil: %s\n", e.what());
    return 1;
  }
}
