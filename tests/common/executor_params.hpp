// The executors an executor-parameterized test suite runs on, and the suite names gtest
// shows for them: written once for every suite (expressions, face loops, time schemes).
#pragma once

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

// Every visible GPU (none where no device is visible: the suites then instantiate nothing).
inline std::vector<funcmesh::executor> cuda_executors() {
  std::vector<funcmesh::executor> result;
  for (const funcmesh::executor& e : funcmesh::available_executors()) {
    if (e.kind() == funcmesh::executor_kind::cuda) result.push_back(e);
  }
  return result;
}

// The executor's name as a gtest identifier: "cuda:0" -> "cuda_0".
struct executor_name {
  template <class Info>
  std::string operator()(const Info& info) const {
    std::string name = info.param.name();
    for (char& c : name) {
      if (c == ':') c = '_';
    }
    return name;
  }
};

}  // namespace test_support
