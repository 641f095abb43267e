// step_info: what the driver tells its callbacks (output, checkpoint, progress) after a
// step: the step number, time, the dt just taken, wall time, how far the run is, and the
// residual when the caller injected one. run_summary: what a run returns.
#pragma once

#include <cstdint>
#include <optional>

namespace funcmesh::time {

struct step_info {
  std::int64_t step = 0;  // the step number (options::first_step: the initial state)
  double t = 0.0;         // the time of the state
  double dt = 0.0;        // the step that led here (0 for the initial state)
  double wall = 0.0;      // wall seconds since the run started
  double fraction = 0.0;  // how far the run is, in [0, 1] (from t_end or steps)
  bool last = false;      // the final state of the run
  // residual(u_new, u_old) of this step, when a residual was injected (and a callback
  // fires at this step: it costs a copy of u, made only then), or the one the scheme
  // computed itself (residual_scheme_for).
  std::optional<double> residual{};
};

struct run_summary {
  std::int64_t steps = 0;  // the final step number (first_step + the steps taken)
  double t = 0.0;
  double wall = 0.0;
};

}  // namespace funcmesh::time
