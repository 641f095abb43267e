// Your own explicit scheme, plugged into funcmesh's time driver: Heun's method from a
// Butcher tableau, then SSP-RK(3,3) written by hand as a `step` function, each checked for
// its order on decaying ODEs and for mass conservation on 1-D periodic advection.
// docs/custom-schemes.md walks through this file; its code blocks are cut from here.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <funcmesh/app.hpp>
#include <funcmesh/core/settings.hpp>
#include <funcmesh/framework.hpp>
#include <funcmesh/time.hpp>

namespace fm = funcmesh;

namespace {

struct options {
  fm::index_t cells = 1000;
  int steps = 40;
  std::string executor = "auto";
  bool quiet = false;
};

// Strict parsing: a typo must not silently become a default. Exit 2 on a bad command line.
bool parse(int argc, char** argv, options& chosen, int& status) {
  if (const auto& env = fm::settings::get().executor; env.from_environment()) {
    chosen.executor = env.text();  // checked by parse_or_exit_code (settings::load)
  }
  fm::app::program args(
      "custom_scheme",
      "Builds two user-defined time schemes (Heun's method from a Butcher tableau, and "
      "SSP-RK(3,3) as a hand-written step), measures their order on N decaying ODEs "
      "y_i' = -k_i y_i, and checks that they conserve mass on 1-D periodic upwind advection. "
      "Exit status 0 when every check passes.");
  args.option("cells", chosen.cells, "values per grid function")
      ->check(CLI::Range(fm::index_t{2}, fm::index_t{1} << 40));
  args.option("steps", chosen.steps,
              "steps of the coarser run to t = 1 (the finer run takes twice as many)")
      ->check(CLI::Range(4, 1 << 24));
  args.add_executor(chosen.executor);
  args.flag("quiet", chosen.quiet, "no progress lines");
  const std::optional<int> code = args.parse_or_exit_code(argc, argv);
  status = code.value_or(0);
  return !code;
}

}  // namespace

// The schemes and problems below live outside the unnamed namespace: nvcc wants the
// functions that enclose device lambdas to have external linkage.

// [snippet ssp33]
// SSP-RK(3,3) in Shu-Osher form, by hand: three forward Euler steps, convexly combined.
// Two registers: k for the right-hand side, y for the stage value.
struct ssp33 {
  static constexpr int storage = 2;
  std::string name() const { return "ssp33"; }

  template <class S, class F>
  void step(S& u, const fm::time::rhs_function<F>& rhs, double t, double dt,
            fm::time::stage_storage<S>& work) const {
    S& k = work[0];
    S& y = work[1];
    k = rhs(u, t);
    y = values(u) + dt * values(k);  // y = u + dt L(u)
    k = rhs(y, t + dt);
    y = 0.75 * values(u) + 0.25 * values(y) + (0.25 * dt) * values(k);
    k = rhs(y, t + 0.5 * dt);
    // u = 1/3 u + 2/3 (y + dt L(y)), written as an increment of u: fl(1/3) + fl(2/3) != 1
    u = values(u) + (2.0 / 3.0) * (values(y) + dt * values(k) - values(u));
  }
};
// [end snippet]

// [snippet decay]
// N independent problems y_i' = -k_i y_i, y_i(0) = 1, with rates k_i in [0.5, 2]:
// returns the largest error at t = 1 after `steps` steps.
template <class Scheme>
double decay_error(const Scheme& scheme, fm::index_t n, int steps, bool quiet) {
  fm::grid_function<double> rate(n, "rate"), y(n, "y");
  rate = 0.5 + 1.5 * fm::index() / static_cast<double>(n - 1);
  y = fm::pure(1.0);

  auto rhs = [&](const fm::grid_function<double>& v) { return -rate * v; };
  fm::time::driver run(scheme, {.t_end = 1.0, .dt = 1.0 / steps, .progress_every = 10});
  fm::time::progress_printer progress(/*prints=*/true, /*interval=*/0.0, quiet);
  run(y, rhs, fm::time::on_progress(progress));

  fm::grid_function<double> error(n, "error");
  error = fm::abs(y - fm::exp(-rate));
  return fm::max(error);
}
// [end snippet]

// [snippet advection]
// Periodic upwind advection on n cells of [0, 1): du_i/dt = -c (u_i - u_{i-1}) / h.
// The rhs reads the left neighbour through a proxy; the sum of u is conserved.
template <class Scheme>
double mass_drift(const Scheme& scheme, fm::index_t n) {
  const double h = 1.0 / static_cast<double>(n);
  const double c = 1.0;
  fm::grid_function<double> u(n, "u");
  u = fm::exp(-100.0 * fm::pow(h * fm::index() - 0.5, 2.0));  // a bump in the middle
  const double before = fm::sum(u, {.reproducible = true});

  auto upwind = fm::_([] FUNCMESH_DEVICE(fm::proxy<const double> v, fm::index_t i,
                                         fm::index_t cells, double speed) {
    const fm::index_t left = i == 0 ? cells - 1 : i - 1;
    return -speed * (v[i] - v[left]);
  });
  auto rhs = [&](const fm::grid_function<double>& v) {
    return upwind / fm::pure(fm::pr(v)) * fm::index() * fm::pure(n) * fm::pure(c / h);
  };
  fm::time::driver run(scheme, {.t_end = 0.25, .dt = 0.5 * h / c});  // CFL 0.5
  run(u, rhs);
  return std::abs(fm::sum(u, {.reproducible = true}) - before) / before;
}
// [end snippet]

int main(int argc, char** argv) {
  options chosen;
  int status = 0;
  if (!parse(argc, argv, chosen, status)) return status;
  try {
    fm::set_default_executor(chosen.executor);  // "auto" stays per translation unit
    std::printf("custom_scheme: %lld values on the %s executor\n",
                static_cast<long long>(chosen.cells), fm::default_executor().name().c_str());

    // [snippet heun]
    // Heun's method (the explicit trapezoidal rule) as a Butcher tableau: a, b (and c,
    // computed from a's rows when left empty). The tableau is checked here: explicit,
    // sizes agree, the weights sum to 1.
    const fm::time::explicit_rk heun{{{0.0, 0.0}, {1.0, 0.0}}, {0.5, 0.5}, {}, "heun"};
    // [end snippet]

    // [snippet order]
    // The observed order from two step sizes: log2(error(dt) / error(dt / 2)).
    auto order_of = [&](const auto& scheme, double nominal) {
      const double coarse = decay_error(scheme, chosen.cells, chosen.steps, chosen.quiet);
      const double fine = decay_error(scheme, chosen.cells, 2 * chosen.steps, chosen.quiet);
      const double order = std::log2(coarse / fine);
      std::printf("%s: error %.3e at dt = 1/%d, %.3e at dt = 1/%d: order %.2f (nominal %.0f)\n",
                  fm::time::name_of(scheme).c_str(), coarse, chosen.steps, fine, 2 * chosen.steps,
                  order, nominal);
      return std::abs(order - nominal) <= 0.1;
    };
    bool ok = order_of(heun, 2.0);
    ok = order_of(ssp33{}, 3.0) && ok;
    // [end snippet]

    for (double drift : {mass_drift(heun, chosen.cells), mass_drift(ssp33{}, chosen.cells)}) {
      std::printf("advection: relative mass drift %.2e\n", drift);
      ok = ok && drift < 1e-12;
    }
    if (!ok) {
      std::printf("custom_scheme: a check FAILED\n");
      return 1;
    }
    std::printf("custom_scheme: all checks passed\n");
    return 0;
  } catch (const fm::error& failure) {
    std::fprintf(stderr, "custom_scheme: %s\n", failure.what());
    return 1;
  }
}
