// The face-loop and halo cases of face_loop_cases.hpp on every visible GPU, compiled by
// nvcc from the same source as the host test; the serial executor stays the oracle.
// Built in the cuda preset; run only where a GPU is visible (ci/test checks nvidia-smi), with
// FUNCMESH_REQUIRE_GPU=1 so that finding no device fails rather than running zero cases.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../common/executor_params.hpp"
#include "face_loop_cases.hpp"

namespace {

namespace fm = funcmesh;

using test_support::cuda_executors;

class face_loops_on_cuda : public ::testing::TestWithParam<fm::executor> {
 protected:
  fm::scoped_executor executor_{GetParam()};
};

FUNCMESH_FACE_LOOP_CASES(face_loops_on_cuda)

FUNCMESH_GPU_SUITE_IS_NOT_EMPTY(face_loops_on_cuda_cases)

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(face_loops_on_cuda);
INSTANTIATE_TEST_SUITE_P(cuda, face_loops_on_cuda, ::testing::ValuesIn(cuda_executors()),
                         test_support::executor_name{});

}  // namespace
