// Running a built-in time scheme chosen by name (program::add_scheme's --scheme) in the
// example programs.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include <funcmesh/app/program.hpp>
#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/global_reduce.hpp>

#include <funcmesh/time.hpp>

#include "output.hpp"

namespace example {

// driver(scheme named `name`, options)(u, rhs, extras...).
template <class S, class F, class... Extras>
funcmesh::time::run_summary run_scheme(const std::string& name, const funcmesh::time::options& o,
                                       S& u, F&& rhs, Extras&&... extras) {
  namespace time = funcmesh::time;
  auto with = [&](auto scheme) {
    return time::driver(scheme, o)(u, std::forward<F>(rhs), std::forward<Extras>(extras)...);
  };
  if (name == "euler") return with(time::forward_euler{});
  if (name == "ssp-rk2") return with(time::ssp_rk2{});
  if (name == "rk4") return with(time::rk4{});
  return with(time::ssp_rk3{});
}

// Where a run starts: step 0 at t = 0, or the step and time of a checkpoint read.
struct run_start {
  std::int64_t step = 0;
  double t = 0.0;
  bool restarted = false;
};

// How far a run goes: to t_end, or with --steps N (final_step > 0) to that final step
// number, so that a run and its restart end at the same step.
struct run_end {
  double t_end = 0.0;
  std::int64_t final_step = 0;  // 0: to t_end
};

// The driver's options for a run from `start` to `end` with a fixed dt, checkpoints every
// `checkpoint_every` (absolute) steps. A restart past the end is a usage_error on every
// rank (they all read the same checkpoint).
inline funcmesh::time::options span_options(const std::string& program, const run_start& start,
                                            const run_end& end, double dt,
                                            std::int64_t checkpoint_every) {
  funcmesh::time::options o;
  if (end.final_step > 0) {
    if (start.step > end.final_step) {
      throw funcmesh::app::usage_error(program + ": the checkpoint is of step " +
                                       std::to_string(start.step) + ", past --steps " +
                                       std::to_string(end.final_step));
    }
    o.steps = end.final_step - start.step;
  } else {
    if (start.t > end.t_end) {
      throw funcmesh::app::usage_error(program +
                                       ": the checkpoint is at t = " + std::to_string(start.t) +
                                       ", past --t-end " + std::to_string(end.t_end));
    }
    o.t_end = end.t_end;
  }
  o.dt = dt;
  o.t_start = start.t;
  o.first_step = start.step;
  o.checkpoint_every = checkpoint_every;
  // The restored state was the interrupted run's (and is on disk): not output again.
  o.output_initial = !start.restarted;
  return o;
}

// The examples' run of u with the driver options `o` (span_options): output(step_info)
// every --output-every steps (and first and last), `extras` (on_checkpoint) as the
// driver takes them, and progress on rank 0 with the step's global residual
// |u_new - u_old|, computed about 200 times a run (each costs a copy of u and an
// allreduce). S: any distributed state (dist_function, paged_dist_function).
template <class S, class F, class Output, class... Extras>
funcmesh::time::run_summary run_to(const std::string& scheme, funcmesh::time::options o,
                                   const output_choice& out, S& u, F&& rhs, Output&& output,
                                   Extras&&... extras) {
  namespace time = funcmesh::time;
  time::progress_printer progress(u.layout().rank() == 0, 1.0, out.quiet);
  o.output_every = out.every;
  const double count = o.steps ? static_cast<double>(*o.steps) : (*o.t_end - o.t_start) / o.dt;
  o.progress_every = std::max<std::int64_t>(1, static_cast<std::int64_t>(count / 200));
  return run_scheme(scheme, o, u, std::forward<F>(rhs), time::on_progress(progress),
                    time::residual_norm([](const auto& now, const auto& before) {
                      return funcmesh::global_norm2(now - before);
                    }),
                    time::on_output(output), std::forward<Extras>(extras)...);
}

}  // namespace example
