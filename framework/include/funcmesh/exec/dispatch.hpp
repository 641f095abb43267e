// The portable front end of the executors: for_each, transform_reduce and accumulate on
// a runtime executor, forwarded to the backend of its kind. The backends compiled into
// this build are listed in the generated funcmesh/exec/backends.hpp. Every loop passes
// here, so this is where profiling hooks (funcmesh/profile) see each one begin and end.
#pragma once

#include <string_view>
#include <type_traits>

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/exec/backend.hpp>
#include <funcmesh/exec/backends.hpp>
#include <funcmesh/exec/executor.hpp>
#include <funcmesh/profile/device_activity.hpp>
#include <funcmesh/profile/hooks.hpp>
#include <funcmesh/profile/scope.hpp>

namespace funcmesh::exec {

// Work that must not be split runs on the host, on one thread, whatever was asked.
inline executor effective_executor(const executor& chosen, bool serial_only) {
  return serial_only ? executor::serial() : chosen;
}

namespace detail {

// The backend of the executor's kind: the three loops without profiling.
template <class Compiler, class Body>
void run_for_each(const executor& chosen, index_t begin, index_t end, const Body& body,
                  const loop_shape& shape, const loop_label& label) {
  switch (chosen.kind()) {
    case executor_kind::serial:
      return backend<executor_kind::serial, Compiler>::for_each(chosen, begin, end, body, shape,
                                                                label);
    case executor_kind::openmp:
      return backend<executor_kind::openmp, Compiler>::for_each(chosen, begin, end, body, shape,
                                                                label);
    case executor_kind::cuda:
      return backend<executor_kind::cuda, Compiler>::for_each(chosen, begin, end, body, shape,
                                                              label);
  }
}

template <class Compiler, class T, class Map, class Combine>
T run_transform_reduce(const executor& chosen, index_t begin, index_t end, T init, const Map& map,
                       const Combine& combine, const loop_shape& shape, const loop_label& label) {
  switch (chosen.kind()) {
    case executor_kind::serial:
      return backend<executor_kind::serial, Compiler>::transform_reduce(chosen, begin, end, init,
                                                                        map, combine, shape, label);
    case executor_kind::openmp:
      return backend<executor_kind::openmp, Compiler>::transform_reduce(chosen, begin, end, init,
                                                                        map, combine, shape, label);
    case executor_kind::cuda:
      return backend<executor_kind::cuda, Compiler>::transform_reduce(chosen, begin, end, init, map,
                                                                      combine, shape, label);
  }
  return init;
}

template <class Compiler, class Acc, class Add>
Acc run_accumulate(const executor& chosen, index_t begin, index_t end, const Add& add,
                   const loop_shape& shape, const loop_label& label) {
  switch (chosen.kind()) {
    case executor_kind::serial:
      return backend<executor_kind::serial, Compiler>::template accumulate<Acc>(chosen, begin, end,
                                                                                add, shape, label);
    case executor_kind::openmp:
      return backend<executor_kind::openmp, Compiler>::template accumulate<Acc>(chosen, begin, end,
                                                                                add, shape, label);
    case executor_kind::cuda:
      return backend<executor_kind::cuda, Compiler>::template accumulate<Acc>(chosen, begin, end,
                                                                              add, shape, label);
  }
  return Acc{};
}

// A device loop is counted (device_activity.hpp) here, where every backend passes: a
// reduction's launches and the wait for its result count as one launch and one
// synchronisation, on CUDA and on the simulated device alike.
inline void count_device_loop(const executor& chosen, const loop_label& label, bool reduction) {
  if (!chosen.on_device()) return;
  funcmesh::detail::record_launch(label);
  if (reduction) funcmesh::detail::record_synchronization(&label);
}

}  // namespace detail

// Each loop tests profile::active() once (a relaxed load of one flag); only where hooks are
// installed does it take the path that names the loop and calls them around it. CUDA loops
// return once launched (reductions once their result is back), so a loop's time is its
// launch; the kernel's time shows in the next synchronisation's region.
template <class Compiler, class Body>
void for_each(const executor& chosen, index_t begin, index_t end, const Body& body,
              const loop_shape& shape, const loop_label& label) {
  static_assert(FUNCMESH_KERNEL_COPYABLE(Body),
                "funcmesh: a loop body is copied to every thread and device: it must be "
                "trivially copyable (capture views and values, not owners)");
  if (end > begin) detail::count_device_loop(chosen, label, false);
  if (profile::active()) [[unlikely]] {
    const profile::scope profiled(label);
    return detail::run_for_each<Compiler>(chosen, begin, end, body, shape, label);
  }
  return detail::run_for_each<Compiler>(chosen, begin, end, body, shape, label);
}

template <class Compiler, class T, class Map, class Combine>
T transform_reduce(const executor& chosen, index_t begin, index_t end, T init, const Map& map,
                   const Combine& combine, const loop_shape& shape, const loop_label& label) {
  static_assert(FUNCMESH_KERNEL_COPYABLE(Map) && FUNCMESH_KERNEL_COPYABLE(Combine),
                "funcmesh: reduction functions must be trivially copyable");
  if (end > begin) detail::count_device_loop(chosen, label, true);
  if (profile::active()) [[unlikely]] {
    const profile::scope profiled(label);
    return detail::run_transform_reduce<Compiler>(chosen, begin, end, init, map, combine, shape,
                                                  label);
  }
  return detail::run_transform_reduce<Compiler>(chosen, begin, end, init, map, combine, shape,
                                                label);
}

template <class Compiler, class Acc, class Add>
Acc accumulate(const executor& chosen, index_t begin, index_t end, const Add& add,
               const loop_shape& shape, const loop_label& label) {
  static_assert(FUNCMESH_KERNEL_COPYABLE(Add) && FUNCMESH_KERNEL_COPYABLE(Acc),
                "funcmesh: accumulators and what feeds them must be trivially copyable");
  if (end > begin) detail::count_device_loop(chosen, label, true);
  if (profile::active()) [[unlikely]] {
    const profile::scope profiled(label);
    return detail::run_accumulate<Compiler, Acc>(chosen, begin, end, add, shape, label);
  }
  return detail::run_accumulate<Compiler, Acc>(chosen, begin, end, add, shape, label);
}

}  // namespace funcmesh::exec
