// The extra arguments of a driver run, tagged by what they are: dt_callback(f) with
// f(t, u) -> dt (e.g. a CFL bound through a global min the caller injects), residual_norm(f)
// with f(u_new, u_old) -> a global norm, and on_output / on_checkpoint / on_progress(f).
#pragma once

#include <utility>

namespace funcmesh::time {

enum class extra_kind { dt, residual, output, checkpoint, progress };

template <class F>
struct dt_callback_t {
  static constexpr extra_kind kind = extra_kind::dt;
  F f;
};
template <class F>
struct residual_norm_t {
  static constexpr extra_kind kind = extra_kind::residual;
  F f;
};
template <class F>
struct on_output_t {
  static constexpr extra_kind kind = extra_kind::output;
  F f;
};
template <class F>
struct on_checkpoint_t {
  static constexpr extra_kind kind = extra_kind::checkpoint;
  F f;
};
template <class F>
struct on_progress_t {
  static constexpr extra_kind kind = extra_kind::progress;
  F f;
};

// dt(t, u): the step to take from state u at time t; the driver clips it to land on t_end.
template <class F>
dt_callback_t<F> dt_callback(F f) {
  return {std::move(f)};
}
// residual(u_new, u_old) -> double: a norm of the change (global: the caller reduces).
template <class F>
residual_norm_t<F> residual_norm(F f) {
  return {std::move(f)};
}
template <class F>
on_output_t<F> on_output(F f) {
  return {std::move(f)};
}
template <class F>
on_checkpoint_t<F> on_checkpoint(F f) {
  return {std::move(f)};
}
template <class F>
on_progress_t<F> on_progress(F f) {
  return {std::move(f)};
}

}  // namespace funcmesh::time
