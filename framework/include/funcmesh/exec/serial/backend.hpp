// The serial backend: plain loops on the calling thread, in index order. It is the
// oracle the other backends are tested against.
#pragma once

#include <string_view>

#include <funcmesh/exec/backend.hpp>
#include <funcmesh/exec/thread_policy.hpp>

namespace funcmesh::exec {

template <class Compiler>
struct backend<executor_kind::serial, Compiler> {
  template <class Body>
  static void for_each(const executor&, index_t begin, index_t end, const Body& body,
                       const loop_shape&, const loop_label&) {
    detail::record_actual_threads(1);
    for (index_t i = begin; i < end; ++i) body(i);
  }
  template <class T, class Map, class Combine>
  static T transform_reduce(const executor&, index_t begin, index_t end, T init, const Map& map,
                            const Combine& combine, const loop_shape&, const loop_label&) {
    detail::record_actual_threads(1);
    for (index_t i = begin; i < end; ++i) init = combine(init, map(i));
    return init;
  }
  template <class Acc, class Add>
  static Acc accumulate(const executor&, index_t begin, index_t end, const Add& add,
                        const loop_shape&, const loop_label&) {
    detail::record_actual_threads(1);
    Acc total{};
    for (index_t i = begin; i < end; ++i) add(total, i);
    return total;
  }
};

}  // namespace funcmesh::exec
