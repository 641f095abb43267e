// The grid-expression and reduction cases on every visible CUDA device, compiled by nvcc
// from the same sources as the host tests; the serial executor stays the oracle.
// Built in the cuda preset; run only where a GPU is visible (ci/test checks nvidia-smi).
#include <gtest/gtest.h>

#include "../../common/executor_params.hpp"
#include "expression_cases.hpp"
#include "reduction_cases.hpp"

namespace {

namespace fm = funcmesh;

using test_support::cuda_executors;

class on_cuda : public ::testing::TestWithParam<fm::executor> {
 protected:
  fm::scoped_executor executor_{GetParam()};
};

FUNCMESH_EXPRESSION_CASES(on_cuda)

// Data written on the device is seen on the host and back, lazily.
TEST_P(on_cuda, data_moves_lazily_between_host_and_device) {
  fm::grid_function<double> u(1000, "u");
  u = fm::index() * 2.0;  // written on the device only
  EXPECT_FALSE(u.storage().is_valid(fm::host_space));
  EXPECT_EQ(u.to_vector()[999], 1998.0);  // copied back on demand
  EXPECT_TRUE(u.storage().is_valid(GetParam().space()));
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(on_cuda);
INSTANTIATE_TEST_SUITE_P(cuda, on_cuda, ::testing::ValuesIn(cuda_executors()),
                         test_support::executor_name{});

}  // namespace
