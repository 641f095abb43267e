// loop_label: what a loop is, for error messages and profiles ("assignment to grid
// function 'u'"). Built from pointers, so a loop that succeeds never formats a string unless
// profiling is on (funcmesh/profile, which formats each distinct label once per thread).
// In core because executors (exec) and profiles (profile) both name it; it keeps the
// exec namespace it always had.
#pragma once

#include <cstddef>
#include <string>

namespace funcmesh::exec {

struct loop_label {
  const char* what = "loop";
  const std::string* subject = nullptr;  // a grid function's name, when there is one
  std::size_t fused = 1;                 // statements in the loop

  // "assignment to grid function 'u' (fused with 2 more)".
  std::string text() const;
};

}  // namespace funcmesh::exec
