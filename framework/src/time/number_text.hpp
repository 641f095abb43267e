// How the time module's error messages print a number: every digit, so a refused value
// reads exactly as the caller gave it.
#pragma once

#include <sstream>
#include <string>

namespace funcmesh::time::detail {

inline std::string number(double x) {
  std::ostringstream out;
  out.precision(17);
  out << x;
  return out.str();
}

}  // namespace funcmesh::time::detail
