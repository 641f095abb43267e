// The executors an executor-parameterized test suite runs on, and the suite names gtest
// shows for them: written once for every suite (expressions, face loops, time schemes).
#pragma once

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include <funcmesh/exec/executor.hpp>

namespace test_support {

// serial and openmp (as built).
inline std::vector<funcmesh::executor> host_executors() {
  std::vector<funcmesh::executor> result;
  for (const funcmesh::executor& e : funcmesh::available_executors()) {
    if (e.kind() != funcmesh::executor_kind::cuda) result.push_back(e);
  }
  return result;
}

// Serial loops with their data on the simulated device: data movement as on a GPU.
inline std::vector<funcmesh::executor> simulated_executors() {
  return {funcmesh::executor::simulated_device(0)};
}

// The host executors, then the simulated device: a test written once for every executor
// a CPU-only build runs.
inline std::vector<funcmesh::executor> host_and_simulated_executors() {
  std::vector<funcmesh::executor> result = host_executors();
  for (const funcmesh::executor& e : simulated_executors()) result.push_back(e);
  return result;
}

// Every visible GPU (none where no device is visible: the suites then instantiate nothing,
// and FUNCMESH_GPU_SUITE_IS_NOT_EMPTY below says so). Only nvcc-compiled tests get them.
inline std::vector<funcmesh::executor> cuda_executors() {
  std::vector<funcmesh::executor> result;
  for (const funcmesh::executor& e : funcmesh::available_executors()) {
    if (e.kind() == funcmesh::executor_kind::cuda) result.push_back(e);
  }
  return result;
}

// A GPU suite without a GPU runs zero cases: this case makes that visible, as a skip with
// the driver's reason, or as a failure under FUNCMESH_REQUIRE_GPU=1 (the GPU tests and
// ci/gpu-check set it), so that "passed" can never mean "nothing ran".
#define FUNCMESH_GPU_SUITE_IS_NOT_EMPTY(suite)                                                \
  TEST(suite, has_a_gpu_to_run_on) {                                                          \
    if (!test_support::cuda_executors().empty()) return;                                      \
    const std::string reason = funcmesh::gpu_absence_reason();                                \
    if (funcmesh::gpu_required()) FAIL() << "FUNCMESH_REQUIRE_GPU=1 but no GPU: " << reason;  \
    GTEST_SKIP() << "no GPU is visible (" << reason << "): the " #suite " cases did not run"; \
  }

}  // namespace test_support

namespace funcmesh {
// gtest prints parameters with PrintTo: "serial@sim:0" rather than the executor's bytes.
inline void PrintTo(const executor& e, std::ostream* out) { *out << e.name(); }
}  // namespace funcmesh

namespace test_support {

// The executor's name as a gtest identifier: "cuda:0" -> "cuda_0", "serial@sim:0" ->
// "serial_sim_0".
struct executor_name {
  template <class Info>
  std::string operator()(const Info& info) const {
    std::string name = info.param.name();
    for (char& c : name) {
      if (c == ':' || c == '@') c = '_';
    }
    return name;
  }
};

}  // namespace test_support
