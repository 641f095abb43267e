// driver options: when to stop (exactly one of t_end and steps), the step (a fixed dt,
// or a dt callback passed to the run), and how often each callback fires. Checked when
// the driver is made; time_error says which field is wrong.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include <funcmesh/time/step_info.hpp>

namespace funcmesh::time {

using callback = std::function<void(const step_info&)>;

struct options {
  std::optional<double> t_end{};        // stop at this time (the last step is clipped)
  std::optional<std::int64_t> steps{};  // or after this many steps
  double dt = 0.0;                      // fixed step; 0 when a dt callback is given
  double t_start = 0.0;
  // The step number of the initial state: 0 for a fresh run, k for a run restarted from
  // the checkpoint of step k. Step numbers (step_info::step, the *_every counts) are
  // absolute, so a restarted run outputs and checkpoints at the same steps as the
  // uninterrupted one; `steps` still counts the steps of this run.
  std::int64_t first_step = 0;
  std::int64_t output_every = 0;      // output after every n-th step (0: never by count)
  double output_interval = 0.0;       // and/or each time t passes a multiple of this
  bool output_initial = true;         // output the initial state (step 0)
  bool output_final = true;           // output the final state
  std::int64_t checkpoint_every = 0;  // checkpoint after every n-th step (0: never)
  std::int64_t progress_every = 1;    // progress after every n-th step and the last
  // Callbacks may also be given here (they add to those passed to the run).
  callback output{};
  callback checkpoint{};
  callback progress{};
};

// Throws time_error for: both or neither of t_end and steps, negative steps, t_end before
// t_start, a negative or non-finite dt or interval, negative *_every or first_step.
void validate(const options& o);
// Throws time_error unless exactly one of a fixed dt > 0 and a dt callback is given.
void validate_step_choice(const options& o, bool has_dt_callback);
// Throws time_error naming the step and time when dt is not positive and finite.
void check_dt(double dt, std::int64_t step, double t, bool from_callback);
// Throws time_error: step `step` at t with this dt leaves t unchanged (dt is below the
// spacing of doubles at t), so the run would never reach t_end.
[[noreturn]] void throw_stalled(std::int64_t step, double t, double dt);

}  // namespace funcmesh::time
