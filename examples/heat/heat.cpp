// heat: the heat equation u_t = kappa laplace(u) by cell-centred finite volumes (two-point
// fluxes through every face) with explicit Runge-Kutta time stepping, on any rank count.
// Boundary conditions are chosen per Gmsh physical group: Dirichlet (a fixed value) or
// Neumann (a fixed heat flux in). --manufactured solves a problem with a known solution
// and prints the L2 error; with --refine K it repeats on K meshes, each twice as fine,
// and prints the observed order of convergence. --verbose also prints every rank's peak
// resident size and its resident size at the end of the (last) solve, in MiB and bytes
// per owned cell. --paged DIR keeps u and the scheme's registers out of core, in files in
// DIR with each field's cache a quarter of its data, and prints the same bits, on any rank count.
// --steps N runs to step N; --checkpoint-every K writes checkpoints (HDF5, in the background) and
// --restart FILE|latest continues from one, on any rank count, to the same bits.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include <mpi.h>

#include <funcmesh/app.hpp>
#include <funcmesh/comm.hpp>
#include <funcmesh/fv.hpp>
#include <funcmesh/paged/paged.hpp>
#include <funcmesh/time.hpp>

#include "../common/checkpoints.hpp"
#include "../common/memory_report.hpp"
#include "../common/output.hpp"
#include "../common/schemes.hpp"

namespace fm = funcmesh;

namespace {

// A cell's stiffness: the sum of kappa A / d over its faces (explicit stability).
struct stiffness {
  double kappa;
  FUNCMESH_DEVICE double operator()(double, const fm::face_view& f) const {
    return kappa * f.area / f.distance;
  }
};

struct settings {
  fm::app::mesh_options mesh;
  double kappa = 1.0;
  double t_end = 0.05;
  std::int64_t steps = 0;  // --steps N: the final step number instead of t_end
  double cfl = 0.4;
  std::string scheme = "ssp-rk3";
  std::string dirichlet = "left=1,right=0";
  std::string neumann;
  bool manufactured = false;
  int refine = 1;
  double min_order = 0;
  bool verbose = false;
  std::string paged;  // a directory: the fields out of core, in files there
  example::output_choice output;
  fm::app::checkpoint_options checkpoints;
};

// "a=1,b=0" -> {(a, 1), (b, 0)}.
std::vector<std::pair<std::string, double>> parse_groups(const std::string& text,
                                                         const char* option) {
  std::vector<std::pair<std::string, double>> groups;
  std::stringstream all(text);
  std::string item;
  while (std::getline(all, item, ',')) {
    const auto equals = item.find('=');
    std::size_t used = 0;
    double value = 0;
    bool ok = equals != std::string::npos && equals > 0;
    if (ok) {
      try {
        value = std::stod(item.substr(equals + 1), &used);
      } catch (const std::exception&) {
        ok = false;
      }
      ok = ok && used == item.size() - equals - 1;
    }
    if (!ok) {
      throw fm::app::usage_error(std::string("heat: ") + option + " '" + item +
                                 "' is not GROUP=VALUE");
    }
    groups.emplace_back(item.substr(0, equals), value);
  }
  return groups;
}

// Every boundary group of the mesh gets a condition (funcmesh::fv's scalar conditions): the
// named ones as given, the others insulated (Neumann 0); --manufactured makes every group
// Dirichlet 0. The boundary flux reads them by face.physical (fv::diffusion_boundary).
fm::fv::boundary_table<fm::fv::scalar_condition> boundary_conditions(const fm::face_set& faces,
                                                                     const settings& s) {
  using condition = fm::fv::scalar_condition;
  std::vector<std::pair<std::string, condition>> by_group;
  for (const auto& g : faces.boundary_groups()) {
    by_group.emplace_back(g.second,
                          s.manufactured ? condition::dirichlet(0) : condition::neumann(0));
  }
  auto set = [&](const std::string& name, const condition& c) {
    for (auto& [group, given] : by_group) {
      if (group != name) continue;
      given = c;
      return;
    }
    std::string known;
    for (const auto& g : faces.boundary_groups()) known += (known.empty() ? "" : ", ") + g.second;
    throw fm::app::usage_error(
        "heat: the mesh has no boundary group '" + name + "' (" +
        (known.empty() ? std::string("it has no named boundary groups: give its boundary "
                                     "elements physical groups in Gmsh")
                       : "its boundary groups: " + known) +
        "); choose the conditions by group with --dirichlet GROUP=VALUE,... and --neumann "
        "GROUP=VALUE,... (the others are insulated; the default --dirichlet left=1,right=0 "
        "is for the built-in boxes)");
  };
  if (!s.manufactured) {
    for (const auto& [name, value] : parse_groups(s.neumann, "--neumann")) {
      set(name, condition::neumann(value));
    }
    for (const auto& [name, value] : parse_groups(s.dirichlet, "--dirichlet")) {
      set(name, condition::dirichlet(value));
    }
  }
  if (by_group.size() > static_cast<std::size_t>(fm::fv::max_boundary_groups)) {
    throw fm::app::usage_error("heat: more than " + std::to_string(fm::fv::max_boundary_groups) +
                               " boundary groups");
  }
  return fm::fv::make_boundary_table(faces, by_group, "heat");
}

// The manufactured solution on the unit square or cube: u = exp(-d pi^2 kappa t) prod
// sin(pi x_i), zero on the boundary; 0 everywhere without --manufactured. A function of
// the cell centroid: u = fm::fmap(solution{...}, layout.centroid()).
struct solution {
  int dimension;
  double kappa, t;
  bool manufactured;
  FUNCMESH_DEVICE double operator()(const fm::vec<double, 3>& x) const {
    if (!manufactured) return 0.0;
    const double pi = std::numbers::pi;
    double u = std::exp(-dimension * pi * pi * kappa * t);
    for (int i = 0; i < dimension; ++i) u *= std::sin(pi * x[i]);
    return u;
  }
};

// After a solve: the reproducible sum of V u (every digit: equal on any rank count, the
// gather form is), the memory with --verbose, and the L2 error against the manufactured
// solution (0 without --manufactured). u: a dist_function or a paged_dist_function.
template <class U>
double report(MPI_Comm comm, int rank, const settings& s, const fm::distributed_layout& layout,
              const U& u, double t, bool last) {
  const fm::grid_function<double>& volume = layout.volume();
  const fm::index_t owned = layout.owned_count();
  const double total = fm::global_sum(volume * u, {.reproducible = true});
  if (rank == 0) std::printf("heat: sum of V u at t_end = %.17e\n", total);
  if (last && s.verbose) {  // the layout and the fields still alive
    example::print_memory(comm, "heat", "at the end", example::resident_bytes(), owned);
  }
  if (!s.manufactured) return 0.0;
  // L2 error: sqrt(sum V (u - exact(centroid, t))^2) over owned cells, t the final time.
  const solution exact{layout.mesh().cells.dimension, s.kappa, t, true};
  const auto difference = u - fm::fmap(exact, layout.centroid());
  return std::sqrt(fm::global_sum(volume * difference * difference));
}

example::run_end end(const settings& s) { return {.t_end = s.t_end, .final_step = s.steps}; }

// u at t = 0: the manufactured solution, or 0.
auto initial_values(const settings& s, const fm::distributed_layout& layout) {
  return fm::fmap(solution{layout.mesh().cells.dimension, s.kappa, 0.0, s.manufactured},
                  layout.centroid());
}

// The solve of --paged DIR: u on a file_store in DIR (the time driver makes each register
// a paged function there too; each rank has its own files), each rank's part cut into at
// least 16 pages of which 4 are cached: the data are 4x the cache. The same expressions
// as in memory, assigned page by page (neighbour reads of the face sums through the cache,
// halos packed and unpacked through it), so the same bits on any rank count.
template <class Rhs>
double solve_paged(MPI_Comm comm, int rank, const settings& s, const fm::distributed_layout& layout,
                   const Rhs& rhs, double dt, bool last) {
  const fm::paged_options pages{.page = std::max<fm::index_t>(1, layout.total_count() / 16),
                                .cached = 4};
  const fm::file_store disk(s.paged);
  fm::paged_dist_function<double> u(layout, disk, pages, "u");
  u = initial_values(s, layout);
  if (rank == 0 && !s.output.quiet) {
    std::printf(
        "heat: paged: u and the scheme's registers in files in %s, on rank 0 %lld pages of "
        "%lld cells each, %lld cached (the data %.1fx the cache)\n",
        s.paged.c_str(), static_cast<long long>(u.pages()), static_cast<long long>(u.page_size()),
        static_cast<long long>(pages.cached),
        static_cast<double>(u.pages()) / static_cast<double>(pages.cached));
  }
  const auto done = example::run_to(s.scheme, example::span_options("heat", {}, end(s), dt, 0),
                                    s.output, u, rhs, [](const fm::time::step_info&) {});
  return report(comm, rank, s, layout, u, done.t, last);
}

// One solve; returns the L2 error against the manufactured solution (or 0).
double solve(MPI_Comm comm, int rank, const settings& s, const fm::app::mesh_options& mesh,
             bool last) {
  const fm::distributed_layout layout = fm::app::load(comm, mesh);
  const fm::face_set& faces = layout.faces();
  const fm::fv::diffusion_boundary boundary{s.kappa, boundary_conditions(faces, s)};
  const fm::grid_function<double>& volume = layout.volume();
  const fm::fv::two_point_diffusion flux{s.kappa};
  // The same rhs in memory and paged: v is a dist_function or a paged_dist_function.
  auto rhs = [&](const auto& v) {
    return fm::sum_over_faces(faces, flux, v, fm::on_other_groups(boundary)) / volume;
  };
  // Explicit stability: dt <= cfl * min over cells of V / (sum of kappa A / d).
  // (stiffness reads only the faces: the cell value it is given is a constant.)
  const double dt = s.cfl * fm::global_min(layout, volume / fm::sum_over_cell_faces(
                                                                faces, stiffness{s.kappa}, 0.0));
  if (rank == 0 && !s.output.quiet) {
    const std::string until =
        s.steps > 0 ? "to step " + std::to_string(s.steps) : "t_end " + std::to_string(s.t_end);
    std::printf("heat: %s, %lld cells on %d rank(s), %s, dt %.3g, %s\n", mesh.describe().c_str(),
                static_cast<long long>(layout.global_cells()), layout.size(), s.scheme.c_str(), dt,
                until.c_str());
  }
  if (!s.paged.empty()) return solve_paged(comm, rank, s, layout, rhs, dt, last);
  fm::dist_function<double> u(layout, "u");
  u = initial_values(s, layout);
  // With --restart, u, the step and the time come from the checkpoint.
  example::checkpoints checkpoints(s.checkpoints, "heat", s.scheme, layout, s.output.quiet);
  const example::run_start start = checkpoints.resume(u);
  example::field_writer writer(s.output, "heat", layout);
  auto output = [&](const fm::time::step_info& step) {
    if (last) writer.write(step.t, u);
  };
  const auto done = example::run_to(
      s.scheme, example::span_options("heat", start, end(s), dt, checkpoints.every()), s.output, u,
      rhs, output, fm::time::on_checkpoint([&](const fm::time::step_info& step) {
        checkpoints.write(step, u);
      }));
  checkpoints.finish();
  if (last) writer.finish(u);
  return report(comm, rank, s, layout, u, done.t, last);
}

int run(fm::mpi::environment& env, int rank, int argc, char** argv) {
  const MPI_Comm world = env.world().get();
  settings s;
  fm::app::program args("heat", "The heat equation by finite volumes, explicit in time.");
  args.add_mesh(s.mesh);
  args.option("kappa", s.kappa, "diffusivity");
  CLI::Option* t_end = args.option("t-end", s.t_end, "end time");
  args.option("steps", s.steps,
              "run to step number N instead of --t-end (a restarted run continues to step N)")
      ->check(CLI::PositiveNumber)
      ->excludes(t_end);
  args.option("cfl", s.cfl, "dt = cfl * min(V / sum(kappa A / d))");
  args.add_scheme(s.scheme);
  args.option("dirichlet", s.dirichlet, "GROUP=VALUE,... fixed temperatures");
  args.option("neumann", s.neumann, "GROUP=VALUE,... fixed heat flux in (others: insulated)");
  args.flag("manufactured", s.manufactured,
            "solve u = exp(-d pi^2 kappa t) prod sin(pi x_i) (u = 0 on the boundary), print "
            "the L2 error");
  args.option("refine", s.refine, "with --manufactured: repeat on K meshes, each twice as fine");
  args.option("min-order", s.min_order, "exit 3 when the last observed order is below this");
  args.option("paged", s.paged,
              "keep u and the scheme's registers in files in this folder, each cached in a "
              "quarter of its pages (no --vtk, --png)");
  args.add_output(s.output);
  args.add_checkpoints(s.checkpoints);
  args.verbose_help(
      "print each rank's host, rank and GPU at start-up, and its memory at the end (peak, "
      "and resident at the end of the last solve)");
  if (!args.parse(argc, argv, rank == 0)) return 0;
  s.verbose = args.verbose();
  if (!(s.t_end > 0) || !(s.kappa > 0) || !(s.cfl > 0)) {
    throw fm::app::usage_error("heat: --t-end, --kappa and --cfl must be positive");
  }
  if (s.min_order > 0 && s.refine < 2) {
    throw fm::app::usage_error("heat: --min-order needs --manufactured --refine K with K >= 2");
  }
  if (s.refine < 1 || (s.refine > 1 && !s.manufactured)) {
    throw fm::app::usage_error("heat: --refine K needs K >= 1 and --manufactured");
  }
  const bool checkpointing = s.checkpoints.every > 0 || !s.checkpoints.restart.empty();
  if (checkpointing && (s.refine > 1 || !s.paged.empty())) {
    throw fm::app::usage_error(
        "heat: --checkpoint-every and --restart take one in-memory solve (no --refine, --paged)");
  }
  if (!s.paged.empty()) {
    if (!s.output.vtk.empty() || !s.output.png.empty()) {
      throw fm::app::usage_error("heat: --paged writes no fields (no --vtk, --png)");
    }
    if (!std::filesystem::is_directory(s.paged)) {
      throw fm::app::usage_error("heat: --paged '" + s.paged + "' is not a folder");
    }
  }
  if (s.manufactured && !s.mesh.file.empty()) {
    throw fm::app::usage_error("heat: --manufactured runs on the built-in unit boxes");
  }
  std::vector<double> errors, sizes;
  double order = 0;
  fm::app::mesh_options mesh = s.mesh;
  for (int level = 0; level < s.refine; ++level) {
    const double error = solve(world, rank, s, mesh, level + 1 == s.refine);
    if (s.manufactured && rank == 0) {
      errors.push_back(error);
      sizes.push_back(1.0 / static_cast<double>(mesh.n));
      std::printf("heat: n %lld  L2 error %.6e", static_cast<long long>(mesh.n), error);
      if (errors.size() > 1) {
        const std::size_t k = errors.size() - 1;
        order = std::log(errors[k - 1] / errors[k]) / std::log(sizes[k - 1] / sizes[k]);
        std::printf("  observed order %.3f", order);
      }
      std::printf("\n");
    }
    mesh.n *= 2;
  }
  if (s.manufactured && rank == 0 && s.mesh.builtin != "box2d-quad" &&
      s.mesh.builtin != "box3d-hex") {
    std::printf(
        "heat: note: two-point fluxes are consistent only where the line between two cell "
        "centroids is normal to their face (the built-in quads and hexes); on %s they are "
        "not, so the order above is reported, not claimed (a non-orthogonal correction is "
        "not implemented)\n",
        s.mesh.builtin.c_str());
  }
  if (s.min_order > 0) {
    int below = order < s.min_order ? 1 : 0;
    MPI_Bcast(&below, 1, MPI_INT, 0, world);
    if (below != 0) {
      if (rank == 0) std::printf("heat: observed order %.3f is below %.3f\n", order, s.min_order);
      return 3;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return fm::app::run(argc, argv, "heat", [&](fm::mpi::environment& env, int rank) {
    return run(env, rank, argc, argv);
  });
}
