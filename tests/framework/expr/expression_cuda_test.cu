// The grid-expression and reduction cases on every visible CUDA device, compiled by nvcc
// from the same sources as the host tests; the serial executor stays the oracle.
// Built in the cuda preset; run only where a GPU is visible (ci/test checks nvidia-smi).
#include <gtest/gtest.h>

#include <vector>

#include "../../common/executor_params.hpp"
#include "expression_cases.hpp"
#include "reduction_cases.hpp"

namespace {

namespace fm = funcmesh;

// The kernel-body check under nvcc (compile time, so the CUDA build checks it without a
// GPU): lambdas and what holds them pass, owners of host memory do not.
struct owning_body {
  std::vector<double> values;
};
template <class F, class G = fm::view<double>>
struct holding {
  F first;
  G second;
};
static_assert(!FUNCMESH_KERNEL_COPYABLE(owning_body));
static_assert(!FUNCMESH_KERNEL_COPYABLE(std::vector<double>));
static_assert(!FUNCMESH_KERNEL_COPYABLE(holding<owning_body>));
static_assert(FUNCMESH_KERNEL_COPYABLE(holding<fm::view<const double>>));

[[maybe_unused]] double lambdas_count_as_copyable(double a) {
  auto scale = [=] FUNCMESH_DEVICE(double x) { return a * x; };
  static_assert(FUNCMESH_KERNEL_COPYABLE(decltype(scale)));
  static_assert(FUNCMESH_KERNEL_COPYABLE(holding<decltype(scale)>));
  static_assert(FUNCMESH_KERNEL_COPYABLE(holding<holding<decltype(scale)>, double>));
  static_assert(!FUNCMESH_KERNEL_COPYABLE(holding<decltype(scale), std::vector<double>>));
  return scale(1.0);
}

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

// nvcc-compiled code: "auto" is the rank's GPU (host-compiled code gets a host executor,
// expression_test.cpp).
TEST(executor_in_nvcc_code, auto_is_the_ranks_gpu) {
  if (cuda_executors().empty()) GTEST_SKIP() << "no GPU is visible";
  fm::set_default_executor("auto");
  EXPECT_EQ(fm::default_executor(), fm::executor::cuda());
  EXPECT_EQ(fm::default_executor().device(), fm::rank_device());
  EXPECT_EQ(fm::parse_executor("cuda").device(), fm::rank_device());
}

FUNCMESH_GPU_SUITE_IS_NOT_EMPTY(on_cuda_cases)

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(on_cuda);
INSTANTIATE_TEST_SUITE_P(cuda, on_cuda, ::testing::ValuesIn(cuda_executors()),
                         test_support::executor_name{});

}  // namespace
