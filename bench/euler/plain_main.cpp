// plain_airfoil: the plain-loop Airfoil reference on the built-in classic grid. Prints
// the rms every 100 iterations and the time per iteration; the classic check is
// `plain_airfoil --i 400 --j 600 --iterations 100` printing "100 5.02186e-04".
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include <funcmesh/app.hpp>
#include <funcmesh/partition/airfoil_grid.hpp>

#include "plain_airfoil.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif

int main(int argc, char** argv) {
  try {
    funcmesh::airfoil_options grid_options;
    grid_options.i = 400;
    grid_options.j = 600;
    long iterations = 1000;
    plain_airfoil_options options;
    bool unrounded = false;
    funcmesh::app::program args(
        "plain_airfoil",
        "The Airfoil algorithm as plain loops on the classic C-grid of 3 i j cells.");
    args.option("i", grid_options.i, "cells along the airfoil")->check(CLI::Range(2L, 1L << 30));
    args.option("j", grid_options.j, "cells towards the far field")
        ->check(CLI::Range(1L, 1L << 30));
    args.option("iterations", iterations, "iterations; rms printed every 100")
        ->check(CLI::Range(0L, 1L << 30));
    args.option("threads", options.threads, "OpenMP threads for adt and update (0: OpenMP's)")
        ->check(CLI::Range(0, 1 << 16));
    args.flag("precise", options.precise, "print the rms as %.12e instead of %10.5e");
    args.flag("float-constants", options.float_constants,
              "gam = 1.4f, cfl = 0.9f, eps = 0.05f, mach = 0.4f widened to double, as the "
              "original code: reproduces the published 1.060114637578e-04 at iteration 1000 "
              "to 13 digits");
    args.flag("unrounded", unrounded, "full-precision node coordinates, not the file's 6 decimals");
    if (const auto code = args.parse_or_exit_code(argc, argv)) return *code;
    grid_options.round_to_file_precision = !unrounded;
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
