// euler: 2-D compressible Euler flow past a NACA0012 airfoil by the classic unstructured
// finite-volume Airfoil algorithm, on any rank count. The built-in classic Airfoil C-grid
// by default (I=100, J=150: 45k cells; I=400, J=600 is the 720k-cell benchmark grid), or
// any 2-D Gmsh mesh whose boundary groups are named "wall" and "farfield". --verbose also
// prints every rank's peak resident size and its resident size after set-up (at iteration
// 10, or at the end of a shorter run), in MiB and bytes per owned cell. --checkpoint-every K
// writes q every K iterations; --restart FILE|latest continues from one, on any rank count.
// As heat and advection, it runs on funcmesh::time::driver: one Airfoil iteration a step.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include <mpi.h>

#include <funcmesh/app.hpp>
#include <funcmesh/comm.hpp>
#include <funcmesh/partition/airfoil_grid.hpp>
#include <funcmesh/partition/gmsh_reader.hpp>
#include <funcmesh/time.hpp>

#include "../common/checkpoints.hpp"
#include "../common/memory_report.hpp"
#include "../common/output.hpp"
#include "airfoil_solver.hpp"

namespace fm = funcmesh;

namespace {

struct settings {
  fm::index_t i = 100;
  fm::index_t j = 150;
  std::string mesh;
  std::string partitioner = "auto";
  std::string save_mesh;
  int iterations = 1000;
  int print_every = 100;
  std::string form = "gather";
  bool full_precision = false;
  bool float_constants = false;
  example::output_choice output;
  fm::app::checkpoint_options checkpoints;
};

// A file as app::load_file reads it; the built-in grid generated on every rank and cut by
// METIS (auto, metis) on each, or in slabs partitioned in parallel (the others).
fm::distributed_layout load(MPI_Comm comm, const settings& s) {
  const fm::airfoil_options grid{.i = s.i, .j = s.j, .round_to_file_precision = !s.full_precision};
  if (!s.save_mesh.empty()) {
    if (!s.mesh.empty()) throw fm::app::usage_error("euler: --save-mesh saves the built-in grid");
    fm::mpi::on_root_agreed(fm::mpi::communicator(comm),
                            [&] { fm::write_mesh_file(s.save_mesh, fm::airfoil_grid(grid)); });
  }
  if (!s.mesh.empty()) return fm::app::load_file(comm, s.mesh, s.partitioner);
  const fm::partitioner which = fm::partitioner_named(s.partitioner);
  if (which == fm::partitioner::automatic || which == fm::partitioner::metis) {
    return fm::distribute_generated(comm, [grid] { return fm::airfoil_grid(grid); });
  }
  int ranks = 1, rank = 0;
  MPI_Comm_size(comm, &ranks);
  MPI_Comm_rank(comm, &rank);
  return fm::distribute_slab(comm, fm::slab_of(fm::airfoil_grid(grid), ranks, rank), which);
}

// The mesh must be 2-D with boundary groups "wall" and "farfield" (and no other).
void check_mesh(const fm::distributed_layout& layout, const settings& s) {
  std::string failure;
  const fm::mesh& m = layout.mesh().cells;
  const std::string source = s.mesh.empty() ? "the built-in grid" : s.mesh;
  if (m.dimension != 2) {
    failure = source + " is " + std::to_string(m.dimension) + "-D; the Airfoil algorithm is 2-D";
  } else if (m.physical_id("wall", 1) == 0 || m.physical_id("farfield", 1) == 0) {
    failure = source + " needs boundary physical groups named \"wall\" and \"farfield\"";
  }
  fm::mpi::agree(fm::mpi::communicator(layout.comm()), failure);
}

void add_options(fm::app::program& args, settings& s) {
  args.option("i", s.i, "built-in grid: cells around the airfoil per third of the C (3I x J)");
  args.option("j", s.j, "built-in grid: cells from the wall to the far field");
  args.option("mesh", s.mesh,
              "a 2-D mesh with groups \"wall\" and \"farfield\": a Gmsh .msh file or a funcmesh "
              ".h5 mesh file (read in parallel)");
  args.option("partitioner", s.partitioner,
              "auto (METIS; in parallel for .h5 files), metis, parmetis, ptscotch or hilbert")
      ->check(CLI::IsMember(fm::app::partitioner_names()));
  args.option("save-mesh", s.save_mesh, "write the built-in grid to this funcmesh .h5 file first");
  args.option("iterations", s.iterations,
              "Airfoil iterations: the last iteration number (a restarted run continues to it)");
  args.option("print-every", s.print_every, "print the rms residual every N iterations");
  args.option("form", s.form, "face loops: gather (reproducible) or scatter");
  args.flag("full-precision", s.full_precision, "built-in grid: do not round to 6 decimals");
  args.flag("float-constants", s.float_constants,
            "the classic code's constants (1.4f, 0.9f, 0.05f, 0.4f): its published residuals");
  args.add_output(s.output);
  args.add_checkpoints(s.checkpoints);
  args.verbose_help(
      "print each rank's host, rank and GPU at start-up, and its memory at the end (peak, "
      "and at iteration 10)");
}

void check_settings(const settings& s) {
  if (s.iterations < 0) throw fm::app::usage_error("euler: --iterations must be >= 0");
  if (s.print_every < 1) throw fm::app::usage_error("euler: --print-every must be >= 1");
  if (s.form != "gather" && s.form != "scatter") {
    throw fm::app::usage_error("euler: --form '" + s.form + "' is neither gather nor scatter");
  }
}

using field = fm::dist_function<airfoil::state>;

// One Airfoil iteration as the time driver's step: euler's time counts iterations (dt 1),
// so the step from t makes iteration t + dt. u is the solver's q; the solver holds its own
// stage (no registers) and fluxes (the driver's rhs goes unused). The rms of the second
// update (a global sum) is computed only at the steps the driver reports.
struct airfoil_iteration {
  static constexpr int storage = 0;
  airfoil::solver* solver;
  // The resident size once set up, after iteration settled_at: the layout, the solver's
  // fields and the first iterations' scratch (halo buffers, reduction scratch) in place.
  int settled_at;
  std::int64_t* settled_bytes;

  template <class F>
  double step(field&, const fm::time::rhs_function<F>&, double t, double dt,
              fm::time::stage_storage<field>&, bool rms) const {
    const double result = solver->iterate(rms);
    if (t + dt == settled_at) *settled_bytes = example::resident_bytes();
    return result;
  }
};

// The driver's cadence for iterations first + 1 to --iterations: the rms line every
// --print-every iterations (its progress steps), the fields at the start, every
// --output-every iterations (with --vtk) and at the end, and a checkpoint after every
// --checkpoint-every-th (absolute numbers: a restarted run keeps them).
fm::time::options cadence(const settings& s, int first, bool series, std::int64_t checkpoints) {
  return {.steps = s.iterations - first,
          .dt = 1.0,
          .t_start = static_cast<double>(first),
          .first_step = first,
          .output_every = series ? s.output.every : 0,
          .output_initial = first == 0,
          .checkpoint_every = checkpoints,
          .progress_every = s.print_every};
}

// What the iterations leave for the closing lines.
struct run_record {
  int ran = 0;           // iterations run (after a restart: from its checkpoint)
  double seconds = 0;    // their wall time, with the outputs and checkpoints
  int last_printed = 0;  // the last iteration whose rms was printed (0: none)
  double last_rms = 0;
  std::int64_t settled_bytes = -1;
};

// The pressure, made only where it is written (a 720k-cell run saves 5.8 MB without).
class pressure_field {
 public:
  explicit pressure_field(const airfoil::solver& solver) : solver_(solver) {}
  const fm::dist_function<double>& operator()() {
    if (!p_) p_.emplace(solver_.q().layout(), "pressure");
    *p_ = fm::zip_with(airfoil::pressure{solver_.settings().gm1}, solver_.q());
    return *p_;
  }

 private:
  const airfoil::solver& solver_;
  std::optional<fm::dist_function<double>> p_;
};

// Iterations first + 1 to --iterations on the driver's cadence, timed between barriers.
run_record iterate(const settings& s, int first, airfoil::solver& solver,
                   example::checkpoints& checkpoints, example::field_writer& writer,
                   pressure_field& pressure) {
  const MPI_Comm comm = solver.q().layout().comm();
  const bool prints = solver.q().layout().rank() == 0;
  run_record r{.ran = s.iterations - first};
  const int settled_at = std::min(10, s.iterations);
  if (settled_at == 0) r.settled_bytes = example::resident_bytes();
  // Progress also fires after the last iteration, which prints only at a multiple.
  auto print_rms = [&](const fm::time::step_info& step) {
    if (step.step % s.print_every != 0 || step.step == r.last_printed) return;
    r.last_printed = static_cast<int>(step.step);
    r.last_rms = step.residual.value();
    if (prints) {
      std::printf("%d %10.5e\n", r.last_printed, r.last_rms);
      std::fflush(stdout);
    }
  };
  auto write = [&](const fm::time::step_info& step) {
    if (writer.writes_series()) writer.write(step.t, solver.q(), pressure());
  };
  // The rms line before the checkpoint's, as the classic loop prints them.
  auto checkpoint = [&](const fm::time::step_info& step) {
    print_rms(step);
    checkpoints.write(step, solver.q());
  };
  auto unused_rhs = [](const field&) { return 0.0; };
  const fm::time::driver run(airfoil_iteration{&solver, settled_at, &r.settled_bytes},
                             cadence(s, first, writer.writes_series(), checkpoints.every()));
  MPI_Barrier(comm);
  const auto start = std::chrono::steady_clock::now();
  run(solver.q(), unused_rhs, fm::time::on_output(write), fm::time::on_checkpoint(checkpoint),
      fm::time::on_progress(print_rms));
  // Device loops return once launched: the time counts their kernels, so wait for them.
  fm::exec::synchronize(fm::default_executor(), fm::exec::loop_label{"the end of the time loop"});
  MPI_Barrier(comm);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

// The closing lines: the speed and the last rms, the pictures, the memory with --verbose.
void finish(const settings& s, const fm::distributed_layout& layout, const run_record& r,
            example::field_writer& writer, pressure_field& pressure, bool verbose) {
  const MPI_Comm world = layout.comm();
  const int rank = layout.rank();
  if (rank == 0 && !s.output.quiet && r.ran > 0) {
    std::printf("euler: %.3f ms per iteration, %.3g cell updates per second\n",
                1e3 * r.seconds / r.ran,
                2.0 * static_cast<double>(layout.global_cells()) * r.ran / r.seconds);
    // All the digits, for ci/validate-airfoil.
    if (r.last_printed > 0)
      std::printf("euler: rms at iteration %d = %.12e\n", r.last_printed, r.last_rms);
  }
  // The pressure around the airfoil (the built-in grid's far field is 100 chords away).
  fm::png_output_options picture;
  if (s.mesh.empty()) picture.picture.window = {{-0.6, 1.6, -0.55, 0.55}};
  if (writer.draws_picture()) {
    writer.finish(pressure(), picture);
  } else {
    writer.finish();
  }
  // Every digit of the last rms: equal on any rank count with the gather form.
  if (rank == 0 && r.last_printed > 0) std::printf("euler: final rms bits %.17e\n", r.last_rms);
  if (verbose) {
    example::print_memory(world, "euler", "after set-up", r.settled_bytes, layout.owned_count());
    if (rank == 0) {
      std::printf("euler: rank 0 face set: %lld faces, flux window %lld faces\n",
                  static_cast<long long>(layout.faces().size()),
                  static_cast<long long>(layout.faces().flux_window()));
    }
  }
}

int run(fm::mpi::environment& env, int rank, int argc, char** argv) {
  const MPI_Comm world = env.world().get();
  settings s;
  fm::app::program args("euler",
                        "Compressible Euler flow past NACA0012 (the classic Airfoil algorithm).");
  add_options(args, s);
  if (!args.parse(argc, argv, rank == 0)) return 0;
  check_settings(s);
  const fm::distributed_layout layout = load(world, s);
  check_mesh(layout, s);
  if (rank == 0 && !s.output.quiet) {
    std::printf("euler: %lld cells on %d rank(s) x %d thread(s), %s face loops, executor %s\n",
                static_cast<long long>(layout.global_cells()), layout.size(),
                fm::exec::threads_target(), s.form.c_str(), fm::default_executor().name().c_str());
  }
  airfoil::solver solver(
      layout, s.form == "gather" ? airfoil::face_form::gather : airfoil::face_form::scatter,
      s.float_constants ? airfoil::constants::classic_float() : airfoil::constants::exact());
  // The checkpoints hold q after an iteration (the step number), under the name of the
  // constants (a run with others solves another problem).
  example::checkpoints checkpoints(s.checkpoints, "euler",
                                   s.float_constants ? "airfoil-float-constants" : "airfoil",
                                   layout, s.output.quiet);
  const int first = static_cast<int>(checkpoints.resume(solver.q()).step);
  if (first > s.iterations) {
    throw fm::app::usage_error("euler: the checkpoint is of iteration " + std::to_string(first) +
                               ", past --iterations " + std::to_string(s.iterations));
  }
  example::field_writer writer(s.output, "euler", layout);
  pressure_field pressure(solver);
  const run_record r = iterate(s, first, solver, checkpoints, writer, pressure);
  checkpoints.finish();
  finish(s, layout, r, writer, pressure, args.verbose());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return fm::app::run(argc, argv, "euler", [&](fm::mpi::environment& env, int rank) {
    return run(env, rank, argc, argv);
  });
}
