// advection: a scalar carried by the divergence-free flow a = (sin(pi x) cos(pi y),
// -cos(pi x) sin(pi y), 0) on the unit square or cube, by upwind finite volumes and
// explicit Runge-Kutta stepping, on any rank count. The flow is tangent to every wall, so
// nothing enters or leaves: the total mass sum(V u) is conserved to round-off, which the
// program checks and prints. --verbose also prints every rank's peak resident size and its
// resident size at the end, in MiB and bytes per owned cell. --steps N runs to step N;
// --checkpoint-every K writes checkpoints and --restart FILE|latest continues from one.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include <mpi.h>

#include <funcmesh/app.hpp>
#include <funcmesh/comm.hpp>
#include <funcmesh/time.hpp>

#include "../common/checkpoints.hpp"
#include "../common/memory_report.hpp"
#include "../common/output.hpp"
#include "../common/schemes.hpp"

namespace fm = funcmesh;

namespace {

// a . n at a face (its centroid): the same bits seen from either side, negated.
FUNCMESH_DEVICE inline double normal_velocity(const fm::face_view& f) {
  const double pi = 3.14159265358979323846;
  const double x = f.centroid[0], y = f.centroid[1];
  const double ax = std::sin(pi * x) * std::cos(pi * y);
  const double ay = -std::cos(pi * x) * std::sin(pi * y);
  return ax * f.normal[0] + ay * f.normal[1];
}

// The initial value at a cell centroid: a smooth blob off the centre, so the rotation
// moves it.
struct blob {
  FUNCMESH_DEVICE double operator()(const fm::vec<double, 3>& x) const {
    const double r2 = (x[0] - 0.5) * (x[0] - 0.5) + (x[1] - 0.75) * (x[1] - 0.75);
    return std::exp(-r2 / 0.01);
  }
};

// Upwind: what flows into the cell holding `self` through the face.
struct upwind {
  FUNCMESH_DEVICE double operator()(double self, double other, const fm::face_view& f) const {
    const double an = normal_velocity(f) * f.area;
    return -an * (an > 0 ? self : other);
  }
};
// Walls: the flow is tangent, nothing crosses.
struct closed {
  FUNCMESH_DEVICE double operator()(double, const fm::face_view&) const { return 0.0; }
};
// A cell's outflow rate, for the CFL condition.
struct outflow {
  FUNCMESH_DEVICE double operator()(double, const fm::face_view& f) const {
    const double an = normal_velocity(f) * f.area;
    return an > 0 ? an : 0.0;
  }
};

struct settings {
  fm::app::mesh_options mesh;
  double t_end = 0.5;
  std::int64_t steps = 0;  // --steps N: the final step number instead of t_end
  double cfl = 0.8;
  std::string scheme = "ssp-rk3";
  example::output_choice output;
  fm::app::checkpoint_options checkpoints;
};

int run(fm::mpi::environment& env, int rank, int argc, char** argv) {
  const MPI_Comm world = env.world().get();
  settings s;
  fm::app::program args("advection",
                        "A scalar carried by a divergence-free flow, upwind finite volumes.");
  args.add_mesh(s.mesh);
  CLI::Option* t_end = args.option("t-end", s.t_end, "end time");
  args.option("steps", s.steps,
              "run to step number N instead of --t-end (a restarted run continues to step N)")
      ->check(CLI::PositiveNumber)
      ->excludes(t_end);
  args.option("cfl", s.cfl, "dt = cfl * min(V / outflow rate)");
  args.add_scheme(s.scheme);
  args.add_output(s.output);
  args.add_checkpoints(s.checkpoints);
  args.verbose_help(
      "print each rank's host, rank and GPU at start-up, and its memory at the end (peak, "
      "and resident at the end)");
  if (!args.parse(argc, argv, rank == 0)) return 0;
  if (!(s.t_end > 0) || !(s.cfl > 0)) {
    throw fm::app::usage_error("advection: --t-end and --cfl must be positive");
  }

  const fm::distributed_layout layout = fm::app::load(world, s.mesh);
  const fm::face_set& faces = layout.faces();
  const fm::grid_function<double>& volume = layout.volume();
  fm::dist_function<double> u(layout, "u");
  u = fm::fmap(blob{}, layout.centroid());
  auto rhs = [&](const fm::dist_function<double>& v) {
    return fm::sum_over_faces(faces, upwind{}, v, fm::on_other_groups(closed{})) / volume;
  };
  // (outflow reads only the faces: the cell value it is given is a constant.)
  const double dt =
      s.cfl * fm::global_min(layout, volume / fm::sum_over_cell_faces(faces, outflow{}, 0.0));
  auto mass = [&] { return fm::global_sum(volume * u, {.reproducible = true}); };
  // The mass of the initial state, before a restart replaces u: conservation is checked
  // against the start of the whole run.
  const double mass0 = mass();
  example::checkpoints checkpoints(s.checkpoints, "advection", s.scheme, layout, s.output.quiet);
  const example::run_start start = checkpoints.resume(u);
  if (rank == 0 && !s.output.quiet) {
    const std::string until =
        s.steps > 0 ? "to step " + std::to_string(s.steps) : "t_end " + std::to_string(s.t_end);
    std::printf("advection: %s, %lld cells on %d rank(s), %s, dt %.3g, %s\n",
                s.mesh.describe().c_str(), static_cast<long long>(layout.global_cells()),
                layout.size(), s.scheme.c_str(), dt, until.c_str());
  }
  example::field_writer writer(s.output, "advection", layout);
  const example::run_end end{.t_end = s.t_end, .final_step = s.steps};
  const auto summary = example::run_to(
      s.scheme, example::span_options("advection", start, end, dt, checkpoints.every()), s.output,
      u, rhs, [&](const fm::time::step_info& step) { writer.write(step.t, u); },
      fm::time::on_checkpoint(
          [&](const fm::time::step_info& step) { checkpoints.write(step, u); }));
  checkpoints.finish();
  writer.finish(u);
  const double mass1 = mass();
  const double change = std::abs(mass1 - mass0) / std::abs(mass0);
  const double range_max = fm::global_max(u);
  if (rank == 0) {
    std::printf("advection: %lld steps to t = %g; max u %.6f\n",
                static_cast<long long>(summary.steps), summary.t, range_max);
    std::printf("advection: mass %.15e -> %.15e, relative change %.2e: %s\n", mass0, mass1, change,
                change < 1e-12 ? "conserved to round-off" : "NOT CONSERVED");
  }
  if (args.verbose()) {
    example::print_memory(world, "advection", "at the end", example::resident_bytes(),
                          layout.owned_count());
  }
  return change < 1e-12 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return fm::app::run(argc, argv, "advection", [&](fm::mpi::environment& env, int rank) {
    return run(env, rank, argc, argv);
  });
}
