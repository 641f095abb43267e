// euler_fv: the compressible Euler equations in 2-D or 3-D on any mesh, by finite volumes
// composed from funcmesh::fv's parts (least-squares or Green-Gauss gradients, limiters,
// MUSCL reconstruction, Rusanov/HLL/HLLC/Roe fluxes, boundary conditions by group) and an
// explicit Runge-Kutta scheme with a CFL step, on any rank count with the same bits.
// Verification cases with exact solutions, placed in the mesh's bounding box:
//   --case vortex       Shu's isentropic vortex carried by the free stream (1, 1), scaled so
//                       that a tenth of the box's smaller side is one unit of the classic
//                       case; boundaries take the exact solution; prints the L2 density error.
//                       In 3-D it is uniform in z (a built-in mesh is then a slab).
//   --case sod          Sod's shock tube along x to t = 0.2 (times the box's length), on a
//                       strip of cells for a built-in mesh; slip walls; prints the L1 density
//                       error against the exact Riemann solution, and checks positivity.
//   --case free-stream  a uniform flow with far-field boundaries: it must stay uniform to
//                       round-off on any mesh (the geometry's closure); prints the deviation.
// --bc GROUP=KIND,... overrides a case's boundary conditions (slip-wall, far-field,
// supersonic-inflow, supersonic-outflow, pressure-outlet, prescribed: the case's state).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <mpi.h>

#include <funcmesh/app.hpp>
#include <funcmesh/comm.hpp>
#include <funcmesh/fv.hpp>
#include <funcmesh/time.hpp>

#include "../common/checkpoints.hpp"
#include "../common/mesh_box.hpp"
#include "../common/output.hpp"
#include "../common/schemes.hpp"
#include "exact_solutions.hpp"
#include "solver.hpp"

namespace fm = funcmesh;
namespace fv = funcmesh::fv;

namespace {

struct settings {
  fm::app::mesh_options mesh;
  std::string test_case = "vortex";
  std::string flux = "hllc";
  std::string reconstruction = "least-squares";
  std::string variables = "primitive";
  std::string limiter = "none";
  double venkat_k = 5;
  std::string scheme = "ssp-rk2";
  double cfl = 0.5;
  double t_end = 0;  // 0: the case's
  std::int64_t steps = 0;
  std::string bc;
  double gamma = 1.4;
  double max_error = 0;  // > 0: exit 3 when the error is larger
  example::output_choice output;
  fm::app::checkpoint_options checkpoints;
};

// The state of the chosen case at (x, t): the prescribed boundaries' and the initial state.
template <int D>
struct case_state {
  int which = 0;  // 0 vortex, 1 sod, 2 free stream
  euler_case::vortex<D> vortex;
  euler_case::sod<D> sod;
  euler_case::uniform<D> uniform;
  FUNCMESH_DEVICE fv::euler_state<D> operator()(const fm::vec<double, 3>& x, double t) const {
    if (which == 0) return vortex(x, t);
    if (which == 1) return sod(x);
    return uniform(x);
  }
  FUNCMESH_DEVICE fv::euler_state<D> operator()(const fm::vec<double, 3>& x) const {
    return (*this)(x, 0.0);
  }
};

// (rho - rho_exact(x, t))^2 and |u - u_free|_inf at a cell.
template <int D>
struct squared_density_error {
  case_state<D> exact;
  double t;
  FUNCMESH_DEVICE double operator()(const fv::euler_state<D>& u,
                                    const fm::vec<double, 3>& x) const {
    const double e = u[0] - exact(x, t)[0];
    return e * e;
  }
};
template <int D>
struct deviation {
  fv::euler_state<D> free;
  FUNCMESH_DEVICE double operator()(const fv::euler_state<D>& u) const {
    double worst = 0;
    for (int k = 0; k < D + 2; ++k) worst = std::fmax(worst, std::abs(u[k] - free[k]));
    return worst;
  }
};
struct absolute_difference {
  template <int N>
  FUNCMESH_DEVICE double operator()(const fm::vec<double, N>& u, double exact) const {
    return std::abs(u[0] - exact);
  }
};

std::vector<std::pair<std::string, std::string>> parse_groups(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> result;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(start, end - start);
    const std::size_t equals = item.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == item.size()) {
      throw fm::app::usage_error("euler_fv: --bc: '" + item + "' is not GROUP=KIND");
    }
    result.emplace_back(item.substr(0, equals), item.substr(equals + 1));
    start = end + 1;
  }
  return result;
}

// The conditions by group: the case's defaults, then --bc's.
template <int D>
fv::boundary_table<fv::euler_condition<D>> conditions(const settings& s, const fm::face_set& faces,
                                                      const fv::euler_state<D>& free) {
  std::vector<std::pair<std::string, fv::euler_condition<D>>> by_group;
  const auto fallback = s.test_case == "vortex" ? fv::euler_condition<D>::prescribed(free)
                        : s.test_case == "sod"  ? fv::euler_condition<D>::slip_wall()
                                                : fv::euler_condition<D>::far_field(free);
  for (const auto& group : faces.boundary_groups()) by_group.emplace_back(group.second, fallback);
  for (const auto& [name, kind_name] : parse_groups(s.bc)) {
    fv::euler_boundary_kind kind{};
    try {
      kind = fv::parse_euler_boundary_kind(kind_name);
    } catch (const std::invalid_argument& e) {
      throw fm::app::usage_error(std::string("euler_fv: --bc ") + name + ": " + e.what());
    }
    bool found = false;
    for (auto& [group, condition] : by_group) {
      if (group != name) continue;
      found = true;
      condition.type = kind;
      condition.state = free;
      condition.pressure = fv::ideal_gas<D>{s.gamma}.pressure(free);
    }
    if (!found) {
      std::string known;
      for (const auto& group : faces.boundary_groups()) known += " \"" + group.second + "\"";
      throw fm::app::usage_error("euler_fv: --bc names the group \"" + name +
                                 "\", which the mesh does not have (its boundary groups:" + known +
                                 ")");
    }
  }
  return fv::make_boundary_table(faces, by_group, "euler_fv");
}

template <int D>
int run_case(const settings& s, const fm::distributed_layout& layout, int rank) {
  const fv::ideal_gas<D> gas{s.gamma};
  const example::mesh_box box = example::bounding_box(layout);
  case_state<D> exact;
  exact.which = s.test_case == "vortex" ? 0 : s.test_case == "sod" ? 1 : 2;
  double t_end = s.t_end;
  const double scale = std::fmin(box.size(0), box.size(1)) / 10;
  if (t_end <= 0)
    t_end = exact.which == 0 ? scale : exact.which == 1 ? 0.2 * box.size(0) : 0.05 * box.size(0);
  exact.vortex = {gas, box.lo[0] + 0.5 * box.size(0) - 0.5 * t_end,
                  box.lo[1] + 0.5 * box.size(1) - 0.5 * t_end, scale, 5.0};
  exact.sod = {gas, box.lo[0] + 0.5 * box.size(0)};
  fv::euler_state<D> free_primitive{};
  free_primitive[0] = 1;
  for (int d = 0; d < D; ++d) free_primitive[1 + d] = exact.which == 2 ? 0.5 - 0.2 * d : 1.0;
  free_primitive[D + 1] = 1;
  const fv::euler_state<D> free = gas.to_conserved(free_primitive);
  exact.uniform = {free};

  const fm::face_set& faces = layout.faces();
  euler_fv::choices c;
  c.flux = fv::parse_euler_flux(s.flux);
  c.gradient = s.reconstruction == "first"         ? euler_fv::gradient_kind::none
               : s.reconstruction == "green-gauss" ? euler_fv::gradient_kind::green_gauss
                                                   : euler_fv::gradient_kind::least_squares;
  c.limiter = fv::parse_limiter(s.limiter);
  c.venkat_k = s.venkat_k;
  c.length = exact.which == 0 ? scale : box.size(0);
  c.primitive = s.variables == "primitive";
  euler_fv::scheme<D, case_state<D>> solver(layout, c, gas, conditions<D>(s, faces, free), exact);

  fm::dist_function<fv::euler_state<D>> u(layout, "u");
  u = fm::make_zip(exact, layout.centroid());
  const double dt0 = solver.stable_dt(u, s.cfl);
  example::checkpoints checkpoints(s.checkpoints, "euler_fv", s.scheme, layout, s.output.quiet);
  const example::run_start start = checkpoints.resume(u);
  if (rank == 0 && !s.output.quiet) {
    std::printf(
        "euler_fv: %s on %s, %lld cells on %d rank(s), %d-D; flux %s, reconstruction %s "
        "(%s variables), limiter %s, %s, cfl %g, t_end %g\n",
        s.test_case.c_str(), s.mesh.describe().c_str(),
        static_cast<long long>(layout.global_cells()), layout.size(), D, s.flux.c_str(),
        s.reconstruction.c_str(), s.variables.c_str(), s.limiter.c_str(), s.scheme.c_str(), s.cfl,
        t_end);
  }
  example::field_writer writer(s.output, "euler_fv", layout);
  fm::time::options o = example::span_options(
      "euler_fv", start, {.t_end = t_end, .final_step = s.steps}, dt0, checkpoints.every());
  o.dt = 0;  // the CFL step of each step's state (dt_callback below)
  o.output_every = s.output.every;
  const double expected = o.steps ? static_cast<double>(*o.steps) : (t_end - start.t) / dt0;
  o.progress_every = std::max<std::int64_t>(1, static_cast<std::int64_t>(expected / 20));
  fm::time::progress_printer progress(rank == 0, 1.0, s.output.quiet);
  const auto summary = example::run_scheme(
      s.scheme, o, u, solver, fm::time::on_progress(progress),
      fm::global_min_dt(layout, [&](const auto& v) { return solver.stable_step(v, s.cfl); }),
      fm::time::on_output([&](const fm::time::step_info& step) { writer.write(step.t, u); }),
      fm::time::on_checkpoint(
          [&](const fm::time::step_info& step) { checkpoints.write(step, u); }));
  checkpoints.finish();
  if (writer.draws_picture()) {
    fm::dist_function<double> rho(layout, "density");
    rho = fm::make_zip(euler_case::density<D>{}, u);
    writer.finish(rho);
  } else {
    writer.finish();
  }

  const fm::grid_function<double>& volume = layout.volume();
  const double total_volume = fm::global_sum(layout, volume, {.reproducible = true});
  const double h = std::pow(total_volume / static_cast<double>(layout.global_cells()), 1.0 / D);
  double error = 0;
  const char* what = "";
  if (exact.which == 0) {
    what = "L2 density error";
    error =
        std::sqrt(fm::global_sum(layout,
                                 volume * fm::make_zip(squared_density_error<D>{exact, summary.t},
                                                       u, layout.centroid()),
                                 {.reproducible = true}) /
                  total_volume);
  } else if (exact.which == 1) {
    what = "L1 density error";
    // The exact Riemann solution at each owned centroid, sampled on the host.
    fm::dist_function<double> exact_density(layout, "exact density");
    {
      const auto x = layout.centroid().to_vector();
      auto out = exact_density.write();
      const euler_exact::primitive left{1.0, 0.0, 1.0}, right{0.125, 0.0, 0.1};
      for (fm::index_t i = 0; i < layout.owned_count(); ++i) {
        const double xi = (x[static_cast<std::size_t>(i)][0] - exact.sod.x_mid) / summary.t;
        out[i] = euler_exact::sample(left, right, s.gamma, xi).rho;
      }
    }
    error = fm::global_sum(layout, volume * fm::make_zip(absolute_difference{}, u, exact_density),
                           {.reproducible = true}) /
            total_volume;
  } else {
    what = "largest deviation from the free stream";
    error = fm::global_max(layout, fm::make_zip(deviation<D>{free}, u));
  }
  const double min_density = fm::global_min(layout, fm::make_zip(euler_case::density<D>{}, u));
  const double min_pressure = fm::global_min(layout, fm::make_zip(euler_case::pressure<D>{gas}, u));
  const double mass = fm::global_sum(layout, volume * fm::make_zip(euler_case::density<D>{}, u),
                                     {.reproducible = true});
  const bool positive = min_density > 0 && min_pressure > 0;
  const bool within = !(s.max_error > 0) || error <= s.max_error;
  if (rank == 0) {
    std::uint64_t error_bits = 0, mass_bits = 0;
    std::memcpy(&error_bits, &error, 8);
    std::memcpy(&mass_bits, &mass, 8);
    std::printf("euler_fv: %lld steps to t = %.6g\n", static_cast<long long>(summary.steps),
                summary.t);
    std::printf("euler_fv: %s %.6e (h %.4e, %lld cells)\n", what, error, h,
                static_cast<long long>(layout.global_cells()));
    std::printf("euler_fv: min density %.6g, min pressure %.6g: %s\n", min_density, min_pressure,
                positive ? "positive" : "NOT POSITIVE");
    std::printf("euler_fv: result bits %016llx %016llx\n",
                static_cast<unsigned long long>(error_bits),
                static_cast<unsigned long long>(mass_bits));
    if (!within) std::printf("euler_fv: the error is above --max-error %g\n", s.max_error);
  }
  if (!positive) return 1;
  return within ? 0 : 3;
}

// A built-in mesh shaped for the case, at n cells along x with square cells: Sod's tube on
// a strip (4 cells across in 2-D, 2 x 2 in 3-D), the vortex in 3-D on a slab two cells thick
// (it is uniform in z); otherwise the unit box. A Gmsh or .h5 mesh is used as it is.
fm::distributed_layout load_mesh(MPI_Comm world, const settings& s) {
  const std::string name = s.mesh.builtin;
  const bool plane = name.rfind("box2d", 0) == 0;
  const bool strip = s.test_case == "sod", slab = s.test_case == "vortex" && !plane;
  if (!s.mesh.file.empty() || !(strip || slab)) return fm::app::load(world, s.mesh);
  const fm::index_t n = s.mesh.n;
  fm::box_options o;
  o.perturbation = s.mesh.perturbation;
  const fm::index_t ny = strip ? (plane ? 4 : 2) : n, nz = 2;
  o.lengths = {1.0, static_cast<double>(ny) / static_cast<double>(n),
               plane ? 1.0 : static_cast<double>(nz) / static_cast<double>(n)};
  return fm::distribute_generated(world, [n, ny, nz, o, name] {
    if (name == "box2d-tri") return fm::box2d_tri(n, ny, o);
    if (name == "box3d-hex") return fm::box3d_hex(n, ny, nz, o);
    if (name == "box3d-tet") return fm::box3d_tet(n, ny, nz, o);
    return fm::box2d_quad(n, ny, o);
  });
}

int run(fm::mpi::environment& env, int rank, int argc, char** argv) {
  const MPI_Comm world = env.world().get();
  settings s;
  fm::app::program args("euler_fv",
                        "The Euler equations by second-order finite volumes from funcmesh::fv's "
                        "parts, verified against exact solutions.");
  args.add_mesh(s.mesh);
  args.option("case", s.test_case, "vortex (isentropic vortex), sod (shock tube) or free-stream")
      ->check(CLI::IsMember({"vortex", "sod", "free-stream"}));
  args.option("flux", s.flux, "numerical flux: " + fv::euler_flux_names())
      ->check(CLI::IsMember({"rusanov", "hll", "hllc", "roe"}));
  args.option("reconstruction", s.reconstruction, "first, green-gauss or least-squares")
      ->check(CLI::IsMember({"first", "green-gauss", "least-squares"}));
  args.option("variables", s.variables, "the variables reconstructed: primitive or conserved")
      ->check(CLI::IsMember({"primitive", "conserved"}));
  args.option("limiter", s.limiter,
              "none, barth, venkat, minmod, van-leer, van-albada, superbee or mc")
      ->check([](const std::string& name) {
        try {
          (void)fv::parse_limiter(name);
        } catch (const std::invalid_argument& e) {
          return std::string(e.what());
        }
        return std::string();
      });
  args.option("venkat-k", s.venkat_k, "Venkatakrishnan's K (eps^2 = (K h)^3)")
      ->check(CLI::NonNegativeNumber);
  args.add_scheme(s.scheme);
  args.option("cfl", s.cfl, "dt = cfl * min(V / sum of (|u.n| + c) A), every step")
      ->check(CLI::PositiveNumber);
  CLI::Option* t_end = args.option("t-end", s.t_end, "end time (0: the case's)");
  args.option("steps", s.steps, "run to step number N instead of --t-end")
      ->check(CLI::PositiveNumber)
      ->excludes(t_end);
  args.option("bc", s.bc, "GROUP=KIND,... boundary conditions replacing the case's");
  args.option("gamma", s.gamma, "ratio of specific heats")->check(CLI::Range(1.0001, 3.0));
  args.option("max-error", s.max_error, "exit 3 when the error is above this (0: no check)");
  args.add_output(s.output);
  args.add_checkpoints(s.checkpoints);
  if (!args.parse(argc, argv, rank == 0)) return 0;

  const fm::distributed_layout layout = load_mesh(world, s);
  return layout.mesh().cells.dimension == 3 ? run_case<3>(s, layout, rank)
                                            : run_case<2>(s, layout, rank);
}

}  // namespace

int main(int argc, char** argv) {
  return fm::app::run(argc, argv, "euler_fv", [&](fm::mpi::environment& env, int rank) {
    return run(env, rank, argc, argv);
  });
}
