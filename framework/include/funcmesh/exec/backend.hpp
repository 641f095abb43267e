// backend<Kind, Compiler>: what an executor kind does with a loop. Each backend
// specializes it in its own header (exec/serial, exec/openmp, exec/cuda); the primary
// template is a backend that is not available and says why.
//
// Compiler tells translation units compiled by nvcc apart from host-compiled ones: only
// the former can launch CUDA kernels, and every template that dispatches takes it as a
// parameter, so the two kinds of translation unit never share a definition (no ODR clash
// when a .cpp and a .cu file run the same expression).
#pragma once

#include <string>
#include <string_view>

#include <funcmesh/core/error.hpp>
#include <funcmesh/core/index.hpp>
#include <funcmesh/core/loop_label.hpp>
#include <funcmesh/exec/compiler.hpp>
#include <funcmesh/exec/executor.hpp>
#include <funcmesh/exec/loop_shape.hpp>

namespace funcmesh::exec {

namespace detail {
[[noreturn]] void throw_backend_unavailable(const executor& chosen, bool compiled_by_nvcc,
                                            const loop_label& label);
}  // namespace detail

// The interface every backend provides:
//   for_each(executor, begin, end, body, shape, label)        body(i) for i in range
//   transform_reduce(executor, begin, end, init, map, combine, ...) combine of map(i)
//   accumulate<Acc>(executor, begin, end, add, ...)  Acc per worker, add(acc, i), merged
//                                                     with acc.merge(other)
template <executor_kind Kind, class Compiler>
struct backend {
  template <class Body>
  static void for_each(const executor& chosen, index_t, index_t, const Body&, const loop_shape&,
                       const loop_label& label) {
    detail::throw_backend_unavailable(chosen, std::is_same_v<Compiler, nvcc_compiler>, label);
  }
  template <class T, class Map, class Combine>
  static T transform_reduce(const executor& chosen, index_t, index_t, T, const Map&, const Combine&,
                            const loop_shape&, const loop_label& label) {
    detail::throw_backend_unavailable(chosen, std::is_same_v<Compiler, nvcc_compiler>, label);
  }
  template <class Acc, class Add>
  static Acc accumulate(const executor& chosen, index_t, index_t, const Add&, const loop_shape&,
                        const loop_label& label) {
    detail::throw_backend_unavailable(chosen, std::is_same_v<Compiler, nvcc_compiler>, label);
  }
};

}  // namespace funcmesh::exec
