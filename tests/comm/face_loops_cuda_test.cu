// The face-loop and halo cases of face_loop_cases.hpp on every visible GPU, compiled by
// nvcc from the same source as the host test; the serial executor stays the oracle.
// Built in the cuda preset; run only where a GPU is visible (ci/test checks nvidia-smi).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "face_loop_cases.hpp"

namespace {

namespace fm = funcmesh;

std::vector<fm::executor> cuda_executors() {
  std::vector<fm::executor> result;
  for (const fm::executor& e : fm::available_executors()) {
    if (e.kind() == fm::executor_kind::cuda) result.push_back(e);
  }
  return result;
}

class face_loops_on_cuda : public ::testing::TestWithParam<fm::executor> {
 protected:
  fm::scoped_executor executor_{GetParam()};
};

FUNCMESH_FACE_LOOP_CASES(face_loops_on_cuda)

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(face_loops_on_cuda);
INSTANTIATE_TEST_SUITE_P(cuda, face_loops_on_cuda, ::testing::ValuesIn(cuda_executors()),
                         [](const auto& info) {
                           std::string name = info.param.name();
                           for (char& c : name) {
                             if (c == ':') c = '_';  // gtest names are identifiers
                           }
                           return name;
                         });

}  // namespace
