// The driver's checks of its options and of each step's dt.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include <funcmesh/core/error.hpp>
#include <funcmesh/time/options.hpp>

#include "number_text.hpp"

namespace funcmesh::time {

namespace {

[[noreturn]] void refuse(const std::string& why) {
  throw time_error("funcmesh::time::driver: " + why);
}

using detail::number;

}  // namespace

void validate(const options& o) {
  if (o.t_end && o.steps) {
    refuse("both t_end (" + number(*o.t_end) + ") and steps (" + std::to_string(*o.steps) +
           ") are set: give exactly one");
  }
  if (!o.t_end && !o.steps) refuse("neither t_end nor steps is set: give exactly one");
  if (!std::isfinite(o.t_start)) refuse("t_start = " + number(o.t_start) + " is not finite");
  if (o.t_end && (!std::isfinite(*o.t_end) || *o.t_end < o.t_start)) {
    refuse("t_end = " + number(*o.t_end) +
           " must be finite and not before t_start = " + number(o.t_start));
  }
  if (o.steps && *o.steps < 0) refuse("steps = " + std::to_string(*o.steps) + " is negative");
  if (o.first_step < 0) {
    refuse("first_step = " + std::to_string(o.first_step) + " is negative");
  }
  if (!std::isfinite(o.dt) || o.dt < 0.0) {
    refuse("dt = " + number(o.dt) + ": a step must be a positive finite number");
  }
  if (!std::isfinite(o.output_interval) || o.output_interval < 0.0) {
    refuse("output_interval = " + number(o.output_interval) + " must be finite and >= 0");
  }
  if (o.output_every < 0 || o.checkpoint_every < 0 || o.progress_every < 0) {
    refuse("output_every, checkpoint_every and progress_every must be >= 0 (0: never)");
  }
}

void validate_step_choice(const options& o, bool has_dt_callback) {
  if (has_dt_callback && o.dt != 0.0) {
    refuse("both a fixed dt (" + number(o.dt) + ") and a dt callback are given: give one");
  }
  if (!has_dt_callback && !(o.dt > 0.0)) {
    refuse("dt = " + number(o.dt) +
           " and no dt callback: give a positive dt or dt_callback(f) to the run");
  }
}

void check_dt(double dt, std::int64_t step, double t, bool from_callback) {
  if (std::isfinite(dt) && dt > 0.0) return;
  refuse(std::string(from_callback ? "the dt callback returned dt = " : "dt = ") + number(dt) +
         " for step " + std::to_string(step) + " (at t = " + number(t) +
         "): a step must be a positive finite number");
}

void throw_stalled(std::int64_t step, double t, double dt) {
  char text[200];
  std::snprintf(text, sizeof text,
                "funcmesh::time::driver: step %lld at t = %.17g with dt = %.3g leaves t "
                "unchanged (dt is below the spacing of doubles there): t_end is unreachable",
                static_cast<long long>(step), t, dt);
  throw time_error(text);
}

}  // namespace funcmesh::time
