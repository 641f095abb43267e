// Grid expressions and reductions on the host executors (serial, openmp): every case of
// expression_cases.hpp and reduction_cases.hpp, plus executor selection errors.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include <funcmesh/core/settings.hpp>
#include <funcmesh/memory/memory_error.hpp>
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

// The same cases with their data on the simulated device: every copy in and out that a GPU
// needs happens here too, so a loop that skips one reads garbage here as well.
class on_simulated_device : public ::testing::TestWithParam<fm::executor> {
 protected:
  fm::scoped_executor executor_{GetParam()};
};

FUNCMESH_EXPRESSION_CASES(on_simulated_device)

INSTANTIATE_TEST_SUITE_P(sim, on_simulated_device,
                         ::testing::ValuesIn(test_support::simulated_executors()),
                         test_support::executor_name{});

// The overwrite decision of a fused loop, seen in the copies it makes: u lives on the host
// only, the first statement reads it, the second overwrites it whole.
TEST(fused_loop, copies_in_a_target_that_an_earlier_statement_reads) {
  const fm::executor sim = fm::executor::simulated_device(0);
  fm::grid_function<double> u(100, "u"), w(100, "w");
  u = fm::index() * 1.0;  // on the host
  w = fm::pure(0.0);
  fm::reset_simulated_counts();
  fm::run({.on = sim}, fm::set(w, u + 1.0), fm::set(u, fm::pure(-1.0)));
  EXPECT_EQ(fm::simulated_counts().from_host, 1);  // u's old values; w is only written
  const auto wv = w.to_vector(), uv = u.to_vector();
  for (std::size_t i = 0; i < wv.size(); ++i) {
    ASSERT_EQ(wv[i], static_cast<double>(i) + 1.0) << i;
    ASSERT_EQ(uv[i], -1.0) << i;
  }
  // Targets overwritten whole and read by no statement are not copied in.
  fm::grid_function<double> a(100, "a"), b(100, "b");
  a = fm::pure(5.0);
  b = fm::pure(6.0);
  fm::reset_simulated_counts();
  fm::run({.on = sim}, fm::set(a, fm::pure(2.0)), fm::set(b, fm::index() * 3.0));
  EXPECT_EQ(fm::simulated_counts().from_host, 0);
  EXPECT_EQ(b.to_vector()[7], 21.0);
}

// Host-compiled code never defaults to a GPU (it cannot launch a kernel); nvcc-compiled code
// gets the rank's GPU where one is visible. Both sides are asked from here.
TEST(executor, the_default_is_chosen_per_translation_unit) {
  fm::set_default_executor("auto");
  EXPECT_NE(fm::default_executor().kind(), fm::executor_kind::cuda);
  EXPECT_NE(fm::best_available_executor().kind(), fm::executor_kind::cuda);
  for (const fm::executor& e : fm::available_executors())
    EXPECT_NE(e.kind(), fm::executor_kind::cuda) << e.name();
  const bool gpu =
      !fm::available_executors<fm::exec::nvcc_compiler>().empty() &&
      fm::available_executors<fm::exec::nvcc_compiler>().back().kind() == fm::executor_kind::cuda;
  const fm::executor kernels = fm::default_executor<fm::exec::nvcc_compiler>();
  EXPECT_EQ(kernels.kind() == fm::executor_kind::cuda, gpu) << kernels.name();
  if (gpu) {
    EXPECT_EQ(kernels.device(), fm::rank_device());
    // An explicit GPU default: host-compiled code runs on the best host executor instead.
    fm::set_default_executor(fm::executor::cuda());
    EXPECT_NE(fm::default_executor().kind(), fm::executor_kind::cuda);
    EXPECT_EQ(fm::default_executor<fm::exec::nvcc_compiler>(), fm::executor::cuda());
  }
  fm::set_default_executor("auto");
}

TEST(executor, require_gpu_accepts_only_0_and_1) {
  const char* saved = std::getenv("FUNCMESH_REQUIRE_GPU");
  const std::string restore = saved ? saved : "";
  // The settings are read once: each setenv here is followed by a reread.
  setenv("FUNCMESH_REQUIRE_GPU", "yes", 1);
  fm::detail::reload_settings();
  EXPECT_THROW((void)fm::gpu_required(), fm::device_error);
  setenv("FUNCMESH_REQUIRE_GPU", "0", 1);
  fm::detail::reload_settings();
  EXPECT_FALSE(fm::gpu_required());
  setenv("FUNCMESH_REQUIRE_GPU", "1", 1);
  fm::detail::reload_settings();
  EXPECT_TRUE(fm::gpu_required());
  if (fm::available_executors<fm::exec::nvcc_compiler>().back().kind() != fm::executor_kind::cuda) {
    try {
      (void)fm::best_available_executor();
      ADD_FAILURE() << "auto fell back to the CPU under FUNCMESH_REQUIRE_GPU=1";
    } catch (const fm::device_error& failure) {
      EXPECT_NE(std::string(failure.what()).find("no GPU is visible"), std::string::npos)
          << failure.what();
    }
  }
  if (saved)
    setenv("FUNCMESH_REQUIRE_GPU", restore.c_str(), 1);
  else
    unsetenv("FUNCMESH_REQUIRE_GPU");
  fm::detail::reload_settings();
}

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
  const auto executors = fm::available_executors<fm::exec::nvcc_compiler>();
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
