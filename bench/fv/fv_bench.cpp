// bench/fv: one SSP-RK2 step of a second-order Euler scheme composed from funcmesh::fv
// (fv_step.hpp) against the same scheme as plain loops (plain_step.cpp), on ~1M triangles
// and ~1M tetrahedra: ms per step, bytes per cell, 2 ranks against 1, and bandwidth.
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <funcmesh/app.hpp>
#include <funcmesh/comm.hpp>
#include <funcmesh/faces/detail/freed_memory.hpp>

#include "../../examples/common/memory_report.hpp"
#include "../common/mpi_timing.hpp"
#include "bench_summary.hpp"
#include "fv_step.hpp"
#include "plain_step.hpp"

namespace fm = funcmesh;
namespace fv = funcmesh::fv;

namespace {

using fv_bench::mesh_result;

struct settings {
  std::int64_t cells = 1000000;
  int repeat = 5;
  std::string dims = "2,3";
  bool quick = false;
  std::string executor = "serial";
};

// Freed memory handed back and the high-water mark reset to the resident size now (Linux
// >= 4.0), so that each mesh's peak is its own.
void forget_earlier_phases() {
  fm::detail::return_freed_memory();
  if (std::FILE* f = std::fopen("/proc/self/clear_refs", "w")) {
    std::fputs("5", f);
    std::fclose(f);
  }
}

// A timed variant: run by rank 0 alone (the others asleep in a barrier) or by every rank.
struct variant {
  std::function<void()> run;
  bool every_rank;
};

// Rounds of every variant once, back to back; each variant's median seconds (on rank 0).
// A rank-0 variant is rank 0's time; an every-rank variant starts after a barrier and is
// the slowest rank's time.
std::vector<double> interleaved(MPI_Comm world, int rank, int rounds,
                                const std::vector<variant>& variants) {
  std::vector<std::vector<double>> times(variants.size());
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t k = 0; k < variants.size(); ++k) {
      bench::idle_barrier(world);
      if (variants[k].every_rank) MPI_Barrier(world);  // all awake: one start
      double t = 0;
      if (variants[k].every_rank || rank == 0) {
        const double start = bench::now();
        variants[k].run();
        t = bench::now() - start;
      }
      times[k].push_back(t);
    }
  }
  std::vector<double> medians;
  for (std::size_t k = 0; k < variants.size(); ++k) {
    if (variants[k].every_rank) {
      std::vector<double> slowest(times[k].size());
      MPI_Allreduce(times[k].data(), slowest.data(), static_cast<int>(slowest.size()), MPI_DOUBLE,
                    MPI_MAX, world);
      times[k] = slowest;
    }
    medians.push_back(bench::median(times[k]));
  }
  return medians;
}

// The bytes one step must move if each array is read and written once per stage: the
// stage's input state, gradient, bounds and limited gradient (each written, then read), the
// stage's result (written; the second stage also reads u), the LS matrices, volumes, cell
// sizes and centroids, the gather index arrays and the per-face arrays the loops read
// (cells, area, normal, centroid).
template <int D>
double step_bytes(const fm::face_set& faces) {
  fm::token holder;
  const fm::face_set_view v = faces.bind_to(fm::host_space, holder);
  const auto n = static_cast<double>(faces.owned_count());
  const auto entries = static_cast<double>(v.offsets[faces.owned_count()] - v.offsets[0]);
  const auto face_count = static_cast<double>(faces.size());
  const double state = (D + 2) * 8.0, gradient = D * state, bounds = 2 * state;
  const double cell_arrays = n * (state + 2 * gradient + 2 * bounds + 2 * gradient + state) +
                             n * 8.0 * (D * (D + 1) / 2 + 2 + D);
  const double index_arrays = 4.0 * (n + 1) + 2 * 4.0 * entries;
  const double face_arrays = face_count * (8.0 + 8.0 + 2 * D * 8.0);
  return 2 * (cell_arrays + index_arrays + face_arrays) + n * state;
}

fm::mesh generate(int dimension, fm::index_t n) {
  fm::box_options o;
  o.perturbation = 0.1;
  return dimension == 2 ? fm::box2d_tri(n, n, o) : fm::box3d_tet(n, n, n, o);
}

template <int D>
mesh_result run_mesh(MPI_Comm world, int rank, int size, const settings& s, double triad) {
  const double cells = static_cast<double>(s.cells);
  const auto n = static_cast<fm::index_t>(
      std::max(2.0, std::round(D == 2 ? std::sqrt(cells / 2) : std::cbrt(cells / 6))));
  auto mesh = [n] { return generate(D, n); };
  const fv::ideal_gas<D> gas{1.4};
  mesh_result r;
  r.dimension = D;
  r.n = n;
  r.ranks = size;
  r.triad = triad;

  // Rank 0 alone: funcmesh's set-up and a first step, the memory figures, then the plain
  // arrays and their first step (both versions are then one step on).
  std::unique_ptr<fm::distributed_layout> alone;
  std::unique_ptr<fv_bench::fv_step<D>> one_rank;
  std::unique_ptr<fv_bench::plain_step<D>> plain;
  double dt = 0;
  if (rank == 0) {
    forget_earlier_phases();
    alone = std::make_unique<fm::distributed_layout>(fm::distribute_generated(MPI_COMM_SELF, mesh));
    one_rank = std::make_unique<fv_bench::fv_step<D>>(*alone, gas);
    one_rank->step();
    r.cells = alone->global_cells();
    r.peak_fv = example::peak_resident_bytes();
    r.resident_fv = example::resident_bytes();
    dt = one_rank->dt();
    const fm::face_set& faces = alone->faces();
    plain = std::make_unique<fv_bench::plain_step<D>>(
        faces, alone->cell_size(), gas, fv_bench::far_field_everywhere<D>(faces, gas), dt);
    plain->step();
    r.peak_both = example::peak_resident_bytes();
    r.model_bytes = step_bytes<D>(faces);
  }
  bench::idle_barrier(world);
  MPI_Bcast(&dt, 1, MPI_DOUBLE, 0, world);

  // Every rank: the same step on the partitioned mesh (with mpirun -np 2).
  std::unique_ptr<fm::distributed_layout> shared;
  std::unique_ptr<fv_bench::fv_step<D>> every_rank;
  if (size > 1) {
    shared = std::make_unique<fm::distributed_layout>(fm::distribute_generated(world, mesh));
    every_rank = std::make_unique<fv_bench::fv_step<D>>(*shared, gas);
    every_rank->set_dt(dt);
    every_rank->step();
  }

  std::vector<variant> variants{{[&] { plain->step(); }, false},
                                {[&] { one_rank->step(); }, false}};
  if (size > 1) variants.push_back({[&] { every_rank->step(); }, true});
  std::array<double, 4> fv_before{}, plain_before{};
  if (rank == 0) {
    fv_before = one_rank->pass_seconds();
    plain_before = plain->pass_seconds();
  }
  const std::vector<double> t = interleaved(world, rank, s.repeat, variants);
  if (rank == 0) {
    for (std::size_t p = 0; p < 4; ++p) {
      r.fv_pass_ms[p] = 1e3 * (one_rank->pass_seconds()[p] - fv_before[p]) / s.repeat;
      r.plain_pass_ms[p] = 1e3 * (plain->pass_seconds()[p] - plain_before[p]) / s.repeat;
    }
  }
  r.plain_ms = 1e3 * t[0];
  r.fv_ms = 1e3 * t[1];
  if (size > 1) r.fv_ranks_ms = 1e3 * t[2];
  r.steps = 1 + s.repeat;
  r.dt = dt;

  // Both versions have now taken the same steps from the same state: compare u.
  if (rank == 0) {
    const std::vector<fv::euler_state<D>> a = one_rank->u().local_values().to_vector();
    const std::vector<fv::euler_state<D>>& b = plain->u();
    double worst = 0;
    for (std::size_t c = 0; c < b.size(); ++c) {
      for (int k = 0; k < D + 2; ++k) {
        const double difference = std::fabs(a[c][k] - b[c][k]);
        const double scale = std::fmax(std::fabs(b[c][k]), 1e-300);
        const double ratio = difference / scale;
        // A NaN (a broken version) counts as the worst difference.
        if (!(ratio <= worst)) worst = std::isnan(ratio) ? HUGE_VAL : ratio;
      }
    }
    r.max_relative_difference = worst;
  }
  MPI_Bcast(&r.max_relative_difference, 1, MPI_DOUBLE, 0, world);
  return r;
}

int run(fm::mpi::environment& env, int argc, char** argv) {
  const MPI_Comm world = env.world().get();
  int rank = 0, size = 1;
  MPI_Comm_rank(world, &rank);
  MPI_Comm_size(world, &size);
  settings s;
  fm::app::program args(
      "fv (benchmark)",
      "One SSP-RK2 step of a second-order Euler scheme (least-squares gradient, neighbour "
      "bounds, Venkatakrishnan, linear reconstruction, HLLC, far field) composed from "
      "funcmesh::fv, against the same scheme as plain loops over the face set's raw arrays "
      "(the same passes: gradient, bounds, limiter gather loops, then a face loop for the "
      "fluxes), on box2d_tri (perturbed 0.1) and box3d_tet meshes, with a fixed dt. Rank 0 alone "
      "times, interleaved: "
      "plain, fv on a layout of MPI_COMM_SELF; run under mpirun -np 2 and every round also "
      "times fv on both ranks (a layout of MPI_COMM_WORLD), so fv_2rank_vs_1rank comes from "
      "one run (the 1-rank figure is rank 0's, the other ranks asleep meanwhile). "
      "fv_bandwidth_fraction: the bytes the step must move with every array read and "
      "written once per stage (state, gradient, bounds, limited gradient, stage result, LS "
      "matrices, the face set's arrays), over the fv time, as a fraction of a one-thread "
      "STREAM triad measured in the same run. Exits 1 when the two versions' u, after the "
      "same steps from the same state, differ by 1e-12 (relative) or more. Run with "
      "OMP_NUM_THREADS=1.");
  args.option("cells", s.cells, "approximate cells per mesh")->check(CLI::Range(100, 100000000));
  args.option("repeat", s.repeat, "interleaved rounds (medians are reported)")
      ->check(CLI::PositiveNumber);
  args.option("dims", s.dims, "the meshes: 2, 3 or 2,3")->check(CLI::IsMember({"2", "3", "2,3"}));
  args.flag("quick", s.quick,
            "about 20k cells and 2 rounds (a smoke test: the figures mean nothing)");
  args.option("executor", s.executor, "funcmesh's executor: serial or openmp")
      ->check(CLI::IsMember({"serial", "openmp"}));
  try {
    if (!args.parse(argc, argv, rank == 0)) return 0;
  } catch (const fm::app::usage_error& e) {
    if (rank == 0) std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  if (s.quick) {
    s.cells = 20000;
    s.repeat = 2;
  }
  const fm::executor chosen =
      s.executor == "openmp" ? fm::executor::openmp() : fm::executor::serial();
  const fm::scoped_executor here(chosen);
  const char* threads = std::getenv("OMP_NUM_THREADS");
  if (rank == 0) {
    std::printf(
        "fv benchmark: ~%lld cells per mesh, %d rank(s), %d rounds; funcmesh on the %s "
        "executor, OMP_NUM_THREADS=%s; load average at start: %s\n",
        static_cast<long long>(s.cells), size, s.repeat, chosen.name().c_str(),
        threads != nullptr ? threads : "(unset)", fv_bench::load_average().c_str());
  }

  // The triad first, on rank 0 alone: its arrays are freed before any mesh's peak.
  double triad = 0;
  if (rank == 0) {
    const std::int64_t n = s.quick ? 1000000 : 10000000;  // 80 MB per array
    triad = fv_bench::triad_bytes_per_second(n, 5);
    std::printf("STREAM triad, 1 thread, 3 x %.0f MB, best of 5: %.2f GB/s\n\n",
                8e-6 * static_cast<double>(n), 1e-9 * triad);
  }
  bench::idle_barrier(world);

  std::vector<mesh_result> results;
  if (s.dims != "3") {
    results.push_back(run_mesh<2>(world, rank, size, s, triad));
    if (rank == 0) fv_bench::print_mesh(results.back());
  }
  if (s.dims != "2") {
    results.push_back(run_mesh<3>(world, rank, size, s, triad));
    if (rank == 0) fv_bench::print_mesh(results.back());
  }
  if (rank == 0) fv_bench::print_summary(results, chosen.name(), fv_bench::load_average());
  bool agree = true;
  for (const mesh_result& r : results)
    agree = agree && r.max_relative_difference < fv_bench::tolerance;
  return agree ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return fm::mpi::guarded_main(argc, argv,
                               [&](fm::mpi::environment& env) { return run(env, argc, argv); });
}
