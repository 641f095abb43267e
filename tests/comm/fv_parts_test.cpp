// fv's parts inside distributed assignments at any rank count, on the serial executor, on
// OpenMP and on the simulated device (fv_parts_cases.hpp): least-squares and Green-Gauss
// gradients, neighbour bounds, limited gradients and a MUSCL Euler right-hand side of
// dist_functions (halos exchanged as for any face loop) have, at every owned cell, the bits
// of the whole mesh computed as one part on the serial executor.
#include <gtest/gtest.h>

#include "../common/executor_params.hpp"
#include "fv_parts_cases.hpp"

namespace {

namespace fm = funcmesh;

class fv_parts : public ::testing::TestWithParam<fm::executor> {
 protected:
  fm::scoped_executor executor_{GetParam()};
};

FUNCMESH_FV_PARTS_CASES(fv_parts)

INSTANTIATE_TEST_SUITE_P(host, fv_parts,
                         ::testing::ValuesIn(test_support::host_and_simulated_executors()),
                         test_support::executor_name{});

}  // namespace
