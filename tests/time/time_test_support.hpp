// Shared by the time-scheme tests: every test runs on each host executor (serial, openmp)
// with a thread policy that splits even small loops, and y' = lambda y helpers.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <funcmesh/framework.hpp>
#include <funcmesh/time.hpp>

#include "../common/executor_params.hpp"

namespace time_test {

namespace fm = funcmesh;

using test_support::host_executors;

class on_executor : public ::testing::TestWithParam<fm::executor> {
 protected:
  fm::scoped_executor executor_{GetParam()};
  fm::exec::scoped_thread_policy policy_{3, 0};
};

// n independent problems y_i' = lambda_i y_i, lambda_i spread over [-1.5, -0.2].
struct decay {
  explicit decay(fm::index_t n = 1001) : lambda(n, "lambda"), y(n, "y") {
    lambda = -0.2 - 1.3 * fm::index() / static_cast<double>(n - 1);
    y = fm::pure(1.0);
  }
  fm::grid_function<double> lambda;
  fm::grid_function<double> y;
};

}  // namespace time_test
