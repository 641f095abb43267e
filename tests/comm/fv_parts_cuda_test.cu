// The fv parts case of fv_parts_cases.hpp on every visible GPU, compiled by nvcc from the
// same source as the host test; the serial executor on one part stays the oracle (bitwise:
// built with --fmad=false). Built in the cuda preset; run only where a GPU is visible, with
// FUNCMESH_REQUIRE_GPU=1 so that finding no device fails rather than running zero cases.
#include <gtest/gtest.h>

#include "../common/executor_params.hpp"
#include "fv_parts_cases.hpp"

namespace {

namespace fm = funcmesh;

class fv_parts_on_cuda : public ::testing::TestWithParam<fm::executor> {
 protected:
  fm::scoped_executor executor_{GetParam()};
};

FUNCMESH_FV_PARTS_CASES(fv_parts_on_cuda)

FUNCMESH_GPU_SUITE_IS_NOT_EMPTY(fv_parts_on_cuda_cases)

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(fv_parts_on_cuda);
INSTANTIATE_TEST_SUITE_P(cuda, fv_parts_on_cuda,
                         ::testing::ValuesIn(test_support::cuda_executors()),
                         test_support::executor_name{});

}  // namespace
