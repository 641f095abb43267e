// The OpenMP backend: contiguous blocks on as many threads as the auto-threading policy
// allows (thread_policy.hpp); below the policy's minimum size the loop stays on the
// calling thread.
#pragma once

#include <string_view>
#include <vector>

#include <omp.h>

#include <funcmesh/exec/backend.hpp>
#include <funcmesh/exec/openmp/for_each.hpp>
#include <funcmesh/exec/thread_policy.hpp>

namespace funcmesh::exec {

template <class Compiler>
struct backend<executor_kind::openmp, Compiler> {
  template <class Body>
  static void for_each(const executor&, index_t begin, index_t end, const Body& body,
                       const loop_shape& shape, const loop_label&) {
    openmp::for_each(begin, end, body, shape.serial_only, shape.work_per_element);
  }
  template <class T, class Map, class Combine>
  static T transform_reduce(const executor&, index_t begin, index_t end, T init, const Map& map,
                            const Combine& combine, const loop_shape& shape, const loop_label&) {
    return openmp::transform_reduce(begin, end, init, map, combine, shape.serial_only,
                                    shape.work_per_element);
  }
  // One accumulator per thread over its block, merged in thread order.
  template <class Acc, class Add>
  static Acc accumulate(const executor&, index_t begin, index_t end, const Add& add,
                        const loop_shape& shape, const loop_label&) {
    openmp::detail::record_on_exit record;
    const int wanted =
        threads_for(end > begin ? end - begin : 0, shape.serial_only, shape.work_per_element);
    Acc total{};
    if (wanted <= 1) {
      for (index_t i = begin; i < end; ++i) add(total, i);
      return total;
    }
    std::vector<Acc> partials(static_cast<std::size_t>(wanted));
    openmp::detail::run_team(wanted, record, [&](int thread, int threads) {
      const block mine = block_of(begin, end, thread, threads);
      Acc local{};
      for (index_t i = mine.begin; i < mine.end; ++i) add(local, i);
      partials[static_cast<std::size_t>(thread)] = local;
    });
    for (int thread = 0; thread < record.threads; ++thread) {
      total.merge(partials[static_cast<std::size_t>(thread)]);
    }
    return total;
  }
};

}  // namespace funcmesh::exec
