// Face loops (gather and scatter forms, sum_over_faces expressions) and halo exchange on
// every host executor and the simulated device (the device forms: atomic scatter, packing
// there, pinned staging) against the serial oracle, at every rank count.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../common/executor_params.hpp"
#include "face_loop_cases.hpp"

namespace {

namespace fm = funcmesh;

using test_support::host_and_simulated_executors;

class face_loops_on : public ::testing::TestWithParam<fm::executor> {
 protected:
  // Split even small loops into several blocks, so that colour groups run threaded.
  fm::scoped_executor executor_{GetParam()};
  fm::exec::scoped_thread_policy policy_{3, 0};
};

FUNCMESH_FACE_LOOP_CASES(face_loops_on)

INSTANTIATE_TEST_SUITE_P(host, face_loops_on, ::testing::ValuesIn(host_and_simulated_executors()),
                         test_support::executor_name{});

}  // namespace
