// driver: runs a scheme from t_start to t_end (the last step clipped to land on it) or for
// a number of steps, with a fixed dt or a dt callback, calling output / checkpoint /
// progress callbacks at their intervals. No MPI here: global reductions come in callbacks
// (or in a scheme that computes its own residual: residual_scheme_for in scheme.hpp).
#pragma once

#include <chrono>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <funcmesh/core/error.hpp>
#include <funcmesh/time/callbacks.hpp>
#include <funcmesh/time/options.hpp>
#include <funcmesh/time/rhs.hpp>
#include <funcmesh/time/scheme.hpp>
#include <funcmesh/time/state.hpp>
#include <funcmesh/time/step_info.hpp>

namespace funcmesh::time {

namespace detail {

// What one run was given besides u and the rhs.
template <class S>
struct run_hooks {
  std::function<double(double, const S&)> dt;
  std::function<double(const S&, const S&)> residual;
  std::vector<callback> output, checkpoint, progress;
};

// Extras are held by reference: they live until the run call returns.
template <class S, class X>
void add_extra(run_hooks<S>& hooks, X& extra) {
  using D = std::remove_cvref_t<X>;
  if constexpr (requires { D::kind; }) {
    auto& f = extra.f;
    using G = std::remove_cvref_t<decltype(f)>;
    if constexpr (D::kind == extra_kind::dt) {
      static_assert(std::invocable<G&, double, const S&> || std::invocable<G&, double>,
                    "funcmesh::time::dt_callback(f): f must be callable as f(t, u) or f(t)");
      if (hooks.dt) throw time_error("funcmesh::time::driver: two dt callbacks given");
      hooks.dt = [&f](double t, const S& u) -> double {
        if constexpr (std::invocable<G&, double, const S&>) {
          return static_cast<double>(f(t, u));
        } else {
          return static_cast<double>(f(t));
        }
      };
    } else if constexpr (D::kind == extra_kind::residual) {
      static_assert(std::invocable<G&, const S&, const S&>,
                    "funcmesh::time::residual_norm(f): f must be callable as f(u_new, u_old)");
      if (hooks.residual) throw time_error("funcmesh::time::driver: two residuals given");
      hooks.residual = [&f](const S& a, const S& b) { return static_cast<double>(f(a, b)); };
    } else {
      static_assert(std::invocable<G&, const step_info&>,
                    "funcmesh::time: on_output / on_checkpoint / on_progress take a callable "
                    "f(const step_info&)");
      callback c = [&f](const step_info& s) { f(s); };
      if constexpr (D::kind == extra_kind::output) hooks.output.push_back(std::move(c));
      if constexpr (D::kind == extra_kind::checkpoint) hooks.checkpoint.push_back(std::move(c));
      if constexpr (D::kind == extra_kind::progress) hooks.progress.push_back(std::move(c));
    }
  } else {
    // An untagged callable is an output callback, as in run(u, rhs, [&](step_info s) {...}).
    static_assert(std::invocable<X&, const step_info&>,
                  "funcmesh::time::driver: an extra argument is dt_callback(f), "
                  "residual_norm(f), on_output(f), on_checkpoint(f), on_progress(f), or a "
                  "callable f(const step_info&) (an output callback)");
    hooks.output.push_back([&extra](const step_info& s) { extra(s); });
  }
}

// One step of u by the scheme: its own residual when it computes one and it is wanted.
template <class Scheme, class S, class R>
std::optional<double> take_step(const Scheme& scheme, S& u, const rhs_function<R>& rhs, double t,
                                double dt, stage_storage<S>& work, bool wanted) {
  if constexpr (residual_scheme_for<Scheme, S, R>) {
    const auto residual = static_cast<double>(scheme.step(u, rhs, t, dt, work, wanted));
    if (wanted) return residual;
  } else {
    scheme.step(u, rhs, t, dt, work);
  }
  return std::nullopt;
}

inline void fire(const callback& from_options, const std::vector<callback>& given,
                 const step_info& s) {
  if (from_options) from_options(s);
  for (const callback& c : given) c(s);
}

}  // namespace detail

template <class Scheme>
class driver {
 public:
  driver(Scheme scheme, options o) : scheme_(std::move(scheme)), options_(std::move(o)) {
    validate(options_);
  }

  const Scheme& scheme() const { return scheme_; }
  const options& settings() const { return options_; }

  // Advances u in place: run(u, rhs, extras...), rhs(v) or rhs(v, t) returning an
  // expression; extras as in callbacks.hpp (an untagged callable is an output callback).
  template <class S, class F, class... Extras>
  run_summary operator()(S& u, F&& rhs, Extras&&... extras) const {
    static_assert(state<S>,
                  "funcmesh::time::driver: the state needs similar(u, name), values(u) and "
                  "expression assignment (see funcmesh/time/state.hpp)");
    using R = std::remove_reference_t<F>;
    static_assert(rhs_for<R, S>,
                  "funcmesh::time::driver: the rhs must be callable as rhs(const S& v) or "
                  "rhs(const S& v, double t), returning an expression");
    constexpr bool values_fit = detail::check_rhs_values<S, R>();
    static_assert(!values_fit || scheme_for<Scheme, S, R>,
                  "funcmesh::time::driver: the scheme needs step(u, rhs, t, dt, work) and a "
                  "storage count (see funcmesh/time/scheme.hpp)");
    if constexpr (values_fit && scheme_for<Scheme, S, R>) {
      detail::run_hooks<S> hooks;
      (detail::add_extra(hooks, extras), ...);
      validate_step_choice(options_, static_cast<bool>(hooks.dt));
      if (residual_scheme_for<Scheme, S, R> && hooks.residual) {
        throw time_error(
            "funcmesh::time::driver: a residual_norm given to a scheme that computes its own "
            "residual");
      }
      return run(u, rhs_function<R>(rhs), hooks);
    } else {
      return run_summary{};
    }
  }

 private:
  template <class S, class R>
  run_summary run(S& u, const rhs_function<R>& rhs, const detail::run_hooks<S>& hooks) const {
    const options& o = options_;
    const auto started = std::chrono::steady_clock::now();
    auto wall = [&] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    };
    const std::string prefix = detail::state_name(u);
    stage_storage<S> work(u, storage_of(scheme_), prefix);
    std::optional<S> old;  // u before the step, only for a residual

    double t = o.t_start;
    std::int64_t n = o.first_step;
    auto fraction = [&](double time, std::int64_t step) {
      if (o.steps) {
        return *o.steps == 0 ? 1.0 : static_cast<double>(step - o.first_step) / *o.steps;
      }
      const double span = *o.t_end - o.t_start;
      return span <= 0.0 ? 1.0 : (time - o.t_start) / span;
    };
    const bool no_steps = o.steps ? *o.steps == 0 : !(*o.t_end > o.t_start);
    if (o.output_initial) {
      detail::fire(o.output, hooks.output,
                   step_info{n, t, 0.0, wall(), fraction(t, n), no_steps, std::nullopt});
    }
    std::int64_t outputs_by_time = 0;  // output_interval multiples passed so far
    bool last = no_steps;
    while (!last) {
      double dt = hooks.dt ? hooks.dt(t, u) : o.dt;
      check_dt(dt, n + 1, t, static_cast<bool>(hooks.dt));
      double t_next = t + dt;
      if (o.t_end) {
        // Within a relative 1e-10 of t_end counts as reaching it: no sliver of a step.
        const double remaining = *o.t_end - t;
        if (dt >= remaining * (1.0 - 1e-10)) {
          dt = remaining;
          t_next = *o.t_end;
          last = true;
        }
      } else {
        last = n + 1 == o.first_step + *o.steps;
      }
      // A dt below the spacing of doubles at t would never reach t_end: refuse, not loop.
      if (o.t_end && !(t_next > t)) throw_stalled(n + 1, t, dt);
      const std::int64_t step = n + 1;
      bool output = (o.output_every > 0 && step % o.output_every == 0) || (last && o.output_final);
      if (o.output_interval > 0.0) {
        const auto passed =
            static_cast<std::int64_t>(std::floor((t_next - o.t_start) / o.output_interval + 1e-9));
        if (passed > outputs_by_time) {
          output = true;
          outputs_by_time = passed;
        }
      }
      const bool checkpoint = o.checkpoint_every > 0 && step % o.checkpoint_every == 0;
      const bool progress = o.progress_every > 0 && (step % o.progress_every == 0 || last);
      const bool reported = output || checkpoint || progress;
      if (hooks.residual && reported) {
        if (!old) old.emplace(similar(u, prefix + ".old"));
        *old = values(u);
      }

      const std::optional<double> own = detail::take_step(scheme_, u, rhs, t, dt, work, reported);
      n = step;
      t = t_next;

      if (!reported) continue;
      step_info info{n, t, dt, wall(), fraction(t, n), last, own};
      if (hooks.residual) info.residual = hooks.residual(u, *old);
      if (output) detail::fire(o.output, hooks.output, info);
      if (checkpoint) detail::fire(o.checkpoint, hooks.checkpoint, info);
      if (progress) detail::fire(o.progress, hooks.progress, info);
    }
    return {n, t, wall()};
  }

  Scheme scheme_;
  options options_;
};

}  // namespace funcmesh::time
