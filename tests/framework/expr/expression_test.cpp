// Grid expressions and reductions on the host executors (serial, openmp): every case of
// expression_cases.hpp and reduction_cases.hpp, plus executor selection errors.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "../../common/executor_params.hpp"
#include "expression_cases.hpp"
#include "reduction_cases.hpp"

namespace {

namespace fm = funcmesh;

using test_support::host_executors;

class on_executor : public ::testing::TestWithParam<fm::executor> {
 protected:
  // Split even small loops into an odd number of blocks, so every test exercises threads.
  fm::scoped_executor executor_{GetParam()};
  fm::exec::scoped_thread_policy policy_{3, 0};
};

FUNCMESH_EXPRESSION_CASES(on_executor)

INSTANTIATE_TEST_SUITE_P(host, on_executor, ::testing::ValuesIn(host_executors()),
                         test_support::executor_name{});

TEST(executor, parses_names_and_refuses_nonsense) {
  EXPECT_EQ(fm::parse_executor("serial").kind(), fm::executor_kind::serial);
  EXPECT_EQ(fm::parse_executor("auto"), fm::best_available_executor());
  for (const char* bad : {"gpu", "cuda:x", "cuda:-1", "Serial", "openmp "}) {
    try {
      (void)fm::parse_executor(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const fm::device_error& failure) {
      EXPECT_NE(std::string(failure.what()).find(bad), std::string::npos) << failure.what();
    }
  }
}

TEST(executor, absent_cuda_is_a_clear_error) {
  if (!fm::config::cuda) {
    EXPECT_THROW((void)fm::executor::cuda(), fm::device_error);
    return;
  }
  // Built with CUDA: a device index beyond the visible ones names the space.
  try {
    (void)fm::executor::cuda(99);
    ADD_FAILURE() << "cuda:99 was accepted";
  } catch (const fm::device_error& failure) {
    EXPECT_NE(std::string(failure.what()).find("cuda"), std::string::npos) << failure.what();
  }
}

TEST(executor, cuda_from_a_host_translation_unit_says_to_use_nvcc) {
  const auto executors = fm::available_executors();
  auto gpu = std::find_if(executors.begin(), executors.end(), [](const fm::executor& e) {
    return e.kind() == fm::executor_kind::cuda;
  });
  if (gpu == executors.end()) GTEST_SKIP() << "no GPU visible";
  fm::grid_function<double> u(10, "u");
  try {
    u.assign(fm::pure(1.0), {.on = *gpu});
    ADD_FAILURE() << "a host translation unit launched a CUDA kernel";
  } catch (const fm::device_error& failure) {
    EXPECT_NE(std::string(failure.what()).find("nvcc"), std::string::npos) << failure.what();
  }
}

TEST(executor, loop_labels_name_what_failed) {
  const std::string name = "u";
  const std::string unnamed;
  EXPECT_EQ((fm::exec::loop_label{"assignment to", &name, 3}).text(),
            "assignment to grid function 'u' (fused with 2 more)");
  EXPECT_EQ((fm::exec::loop_label{"assignment to", &unnamed}).text(),
            "assignment to an unnamed grid function");
  EXPECT_EQ((fm::exec::loop_label{"gather"}).text(), "gather");
}

TEST(grid_function, every_way_of_replacing_values_counts_as_a_write) {
  fm::grid_function<double> u(10, 2, "u"), v(10, 2, "v");
  u = fm::pure(1.0);
  v = fm::pure(2.0);
  auto before = u.write_count();
  u = std::move(v);  // u's values (and halo) are now v's: whatever knew u's halo is stale
  EXPECT_GT(u.write_count(), before);
  EXPECT_EQ(u.to_vector()[0], 2.0);
  EXPECT_EQ(u.name(), "u");
  before = u.write_count();
  fm::grid_function<double> w(10, 2, "w");
  swap(u, w);
  EXPECT_GT(u.write_count(), before);
  before = w.write_count();
  u = w;  // a copy, too
  EXPECT_GT(u.write_count(), 0u);
  EXPECT_EQ(w.write_count(), before);
}

TEST(executor, scoped_executor_nests_and_restores) {
  const fm::executor outer = fm::default_executor();
  {
    fm::scoped_executor serial(fm::executor::serial());
    EXPECT_EQ(fm::default_executor(), fm::executor::serial());
  }
  EXPECT_EQ(fm::default_executor(), outer);
}

TEST(policy, assignments_follow_the_minimum_size) {
  if (!fm::config::openmp) GTEST_SKIP() << "no OpenMP";
  fm::scoped_executor on(fm::executor::openmp());
  fm::exec::scoped_thread_policy policy(4, 1000);
  fm::grid_function<double> small(999), large(1000);
  small = fm::pure(1.0);
  EXPECT_EQ(fm::exec::last_actual_threads(), 1);
  large = fm::pure(1.0);
  EXPECT_EQ(fm::exec::last_actual_threads(), 4);
  EXPECT_EQ(fm::sum(large), 1000.0);
  EXPECT_EQ(fm::exec::last_actual_threads(), 4);
}

TEST(policy, compute_heavy_expressions_split_earlier) {
  if (!fm::config::openmp) GTEST_SKIP() << "no OpenMP";
  fm::scoped_executor on(fm::executor::openmp());
  fm::exec::scoped_thread_policy policy(4, 1000);
  fm::grid_function<double> x(100, "x"), y(100, "y");
  x = fm::pure(0.5);
  // y = x + 1: one read and one write per element, 200 units: below the minimum.
  y = x + 1.0;
  EXPECT_EQ(fm::exec::last_actual_threads(), 1);
  // y = sin(x): 18 units per element, 1800 in all: split.
  y = fm::sin(x);
  EXPECT_EQ(fm::exec::last_actual_threads(), 4);
  static_assert(decltype(x + 1.0)::work == 1);
  static_assert(decltype(fm::sin(x) * fm::cos(x))::work == 34);
  // The thread count never exceeds the elements, however heavy each one is.
  fm::exec::scoped_thread_policy low_minimum(4, 50);
  fm::grid_function<double> tiny(3, "tiny");
  tiny = fm::exp(fm::sin(fm::index() * 1.0));
  EXPECT_EQ(fm::exec::last_actual_threads(), 3);
}

}  // namespace
