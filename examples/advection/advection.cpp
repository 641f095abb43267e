// advection: a scalar carried by a divergence-free flow, by upwind finite volumes and
// explicit Runge-Kutta stepping, on any mesh and any rank count. The flow and the initial
// blob are placed in the mesh's bounding box [x0, x0 + X] x [y0, y0 + Y] (z free), in the
// box's fractions s = (x - x0) / X, t = (y - y0) / Y:
//   a = (X sin(pi s) cos(pi t), -Y cos(pi s) sin(pi t), 0), one vortex filling the box,
//   u0 = exp(-((s - 0.5)^2 + (t - 0.75)^2) / 0.01), a blob off the box's centre.
// On the built-in unit square or cube (or any mesh that is its bounding box) the flow is
// tangent to every wall, so nothing enters or leaves: the total mass sum(V u) is conserved
// to round-off, which the program checks and prints. Where the flow crosses the mesh's
// boundary (a cylinder, an L-shape, a hole) u leaves through the outflow faces and nothing
// flows in: the program checks that the mass only falls and that u stays non-negative
// (an SSP scheme's bound at cfl <= 1; with rk4 or a larger cfl nothing is checked).
// --verbose also prints every rank's peak resident size and its resident size at the end,
// in MiB and bytes per owned cell. --steps N runs to step N; --checkpoint-every K writes
// checkpoints and --restart FILE|latest continues from one.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include <mpi.h>

#include <funcmesh/app.hpp>
#include <funcmesh/comm.hpp>
#include <funcmesh/fv.hpp>
#include <funcmesh/time.hpp>

#include "../common/checkpoints.hpp"
#include "../common/memory_report.hpp"
#include "../common/mesh_box.hpp"
#include "../common/output.hpp"
#include "../common/schemes.hpp"

namespace fm = funcmesh;

namespace {

// The flow, scaled to the mesh's bounding box (on the unit square: the classic cellular
// flow, the same bits).
struct flow {
  double x0 = 0, y0 = 0, width = 1, height = 1;
  // a . n at a face (its centroid): the same bits seen from either side, negated.
  FUNCMESH_DEVICE double normal_velocity(const fm::face_view& f) const {
    const double pi = 3.14159265358979323846;
    const double s = (f.centroid[0] - x0) / width, t = (f.centroid[1] - y0) / height;
    const double ax = width * std::sin(pi * s) * std::cos(pi * t);
    const double ay = -height * std::cos(pi * s) * std::sin(pi * t);
    return ax * f.normal[0] + ay * f.normal[1];
  }
};

// The initial value at a cell centroid: a smooth blob off the box's centre, so the flow
// moves it.
struct blob {
  flow box;
  FUNCMESH_DEVICE double operator()(const fm::vec<double, 3>& x) const {
    const double s = (x[0] - box.x0) / box.width, t = (x[1] - box.y0) / box.height;
    const double r2 = (s - 0.5) * (s - 0.5) + (t - 0.75) * (t - 0.75);
    return std::exp(-r2 / 0.01);
  }
};

// The upwind flux out of the left state (funcmesh::fv's), for the flow's a . n at the face:
// fv::face_flux makes it what flows into the cell holding `self`.
struct upwind {
  flow a;
  FUNCMESH_DEVICE double operator()(double left, double right, const fm::face_view& f) const {
    return fm::fv::upwind_flux(left, right, a.normal_velocity(f));
  }
};
// The mesh's boundary: closed walls where the flow is tangent to every boundary face
// (nothing crosses); otherwise open: what flows out leaves, nothing flows in (u = 0
// outside).
struct boundary {
  flow a;
  bool open = false;
  FUNCMESH_DEVICE double operator()(double self, const fm::face_view& f) const {
    if (!open) return 0.0;
    const double an = a.normal_velocity(f);
    return an > 0 ? -f.area * fm::fv::upwind_flux(self, 0.0, an) : 0.0;
  }
};
// |a . n| A on boundary faces, 0 on interior ones: where the flow crosses the boundary.
struct crossing {
  flow a;
  FUNCMESH_DEVICE double operator()(double, double, const fm::face_view&) const { return 0.0; }
  FUNCMESH_DEVICE double operator()(double, const fm::face_view& f) const {
    return std::abs(a.normal_velocity(f)) * f.area;
  }
};
// A cell's outflow rate, for the CFL condition; with `absolute`, the sum of |a . n| A over
// its faces (the scale the crossing is measured against).
struct outflow {
  flow a;
  bool absolute = false;
  FUNCMESH_DEVICE double operator()(double, const fm::face_view& f) const {
    const double an = a.normal_velocity(f) * f.area;
    return absolute ? std::abs(an) : (an > 0 ? an : 0.0);
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
  const example::mesh_box box = example::bounding_box(layout);
  const flow a{box.lo[0], box.lo[1], box.size(0), box.size(1)};
  fm::dist_function<double> u(layout, "u");
  u = fm::fmap(blob{a}, layout.centroid());
  // Does the flow cross the boundary? The largest |a . n| A of a boundary face against the
  // largest sum of |a . n| A over a cell's faces: round-off (1e-16) where the mesh is its
  // bounding box, order 1 where it is not.
  const crossing across{a};
  const double crossed =
      fm::global_max(layout, fm::sum_over_faces(faces, across, u, fm::on_other_groups(across)));
  const double scale =
      fm::global_max(layout, fm::sum_over_cell_faces(faces, outflow{a, true}, 0.0));
  const bool open = crossed > 1e-12 * scale;
  auto rhs = [&, walls = boundary{a, open}](const fm::dist_function<double>& v) {
    return fm::sum_over_faces(faces, fm::fv::face_flux<upwind>{upwind{a}}, v,
                              fm::on_other_groups(walls)) /
           volume;
  };
  // (outflow reads only the faces: the cell value it is given is a constant.)
  const double dt =
      s.cfl * fm::global_min(layout, volume / fm::sum_over_cell_faces(faces, outflow{a}, 0.0));
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
    std::printf("advection: the flow fills the bounding box [%g, %g] x [%g, %g]; %s\n", box.lo[0],
                box.hi[0], box.lo[1], box.hi[1],
                open ? "it crosses the mesh's boundary: u flows out there, nothing flows in"
                     : "it is tangent to every boundary face: nothing flows in or out");
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
  const auto range = fm::global_minmax(layout, u);
  // Closed: conserved to round-off, by any scheme. Open: upwind with a strong-stability-
  // preserving scheme (euler, ssp-rk2, ssp-rk3) at cfl <= 1 keeps u >= 0, and with nothing
  // flowing in the mass can then only fall; rk4 or a larger cfl promise no such bound.
  const bool bounded = s.scheme != "rk4" && s.cfl <= 1;
  const bool ok =
      open ? !bounded || (range.min >= 0 && mass1 <= mass0 * (1 + 1e-12)) : change < 1e-12;
  if (rank == 0) {
    std::printf("advection: %lld steps to t = %g; max u %.6f\n",
                static_cast<long long>(summary.steps), summary.t, range.max);
    if (open) {
      std::printf(
          "advection: mass %.15e -> %.15e, %.2f%% left through the boundary; min u %.3g: %s\n",
          mass0, mass1, 100 * (mass0 - mass1) / mass0, range.min,
          !bounded ? "not checked (no bound holds for this scheme and cfl)"
          : ok     ? "falling and non-negative"
                   : "NOT BOUNDED (mass grew or u < 0)");
    } else {
      std::printf("advection: mass %.15e -> %.15e, relative change %.2e: %s\n", mass0, mass1,
                  change, ok ? "conserved to round-off" : "NOT CONSERVED");
    }
  }
  if (args.verbose()) {
    example::print_memory(world, "advection", "at the end", example::resident_bytes(),
                          layout.owned_count());
  }
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return fm::app::run(argc, argv, "advection", [&](fm::mpi::environment& env, int rank) {
    return run(env, rank, argc, argv);
  });
}
