// Running a built-in time scheme chosen by name (program::add_scheme's --scheme) in the
// example programs.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

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

// The examples' run of u to t_end with a fixed dt: output(step_info) every --output-every
// steps (and first and last), and progress on rank 0 with the step's global residual
// |u_new - u_old|, computed about 200 times a run (each costs a copy of u and an allreduce).
// S: any distributed state (dist_function, paged_dist_function).
template <class S, class F, class Output>
funcmesh::time::run_summary run_to(const std::string& scheme, double t_end, double dt,
                                   const output_choice& out, S& u, F&& rhs, Output&& output) {
  namespace time = funcmesh::time;
  time::progress_printer progress(u.layout().rank() == 0, 1.0, out.quiet);
  time::options o;
  o.t_end = t_end;
  o.dt = dt;
  o.output_every = out.every;
  o.progress_every = std::max<std::int64_t>(1, static_cast<std::int64_t>(t_end / dt / 200));
  return run_scheme(scheme, o, u, std::forward<F>(rhs), time::on_progress(progress),
                    time::residual_norm([](const auto& now, const auto& before) {
                      return funcmesh::global_norm2(now - before);
                    }),
                    time::on_output(output));
}

}  // namespace example
