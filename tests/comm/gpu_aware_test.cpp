// The GPU-aware MPI decision: device pointers go to MPI only when MPI supports them at
// build and run time, FUNCMESH_GPU_AWARE_MPI=0 always forces host staging, and a bad
// value is refused by name.
#include <gtest/gtest.h>

#include <string>

#include <funcmesh/comm/gpu_aware_mpi.hpp>
#include <funcmesh/core/error.hpp>

namespace {

using funcmesh::mpi::detail::decide_gpu_aware;

TEST(gpu_aware_mpi, needs_support_at_build_and_run_time) {
  EXPECT_TRUE(decide_gpu_aware(nullptr, true, true));
  EXPECT_FALSE(decide_gpu_aware(nullptr, true, false));
  EXPECT_FALSE(decide_gpu_aware(nullptr, false, true));
  // Asking for it does not make an MPI without support take device pointers.
  EXPECT_FALSE(decide_gpu_aware("1", false, false));
  EXPECT_TRUE(decide_gpu_aware("1", true, true));
}

TEST(gpu_aware_mpi, zero_forces_host_staging) { EXPECT_FALSE(decide_gpu_aware("0", true, true)); }

TEST(gpu_aware_mpi, bad_values_are_named) {
  for (const char* bad : {"yes", "", "2", " 1"}) {
    try {
      (void)decide_gpu_aware(bad, true, true);
      ADD_FAILURE() << "'" << bad << "' was accepted";
    } catch (const funcmesh::error& failure) {
      EXPECT_NE(std::string(failure.what()).find("FUNCMESH_GPU_AWARE_MPI"), std::string::npos);
    }
  }
}

}  // namespace
