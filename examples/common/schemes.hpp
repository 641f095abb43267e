// Choosing a built-in time scheme by name (--scheme) in the example programs.
#pragma once

#include <string>
#include <utility>

#include <funcmesh/time.hpp>

#include "arguments.hpp"

namespace example {

inline constexpr const char* scheme_names = "euler, ssp-rk2, ssp-rk3 or rk4";

inline void check_scheme(const std::string& name, const std::string& program) {
  if (name != "euler" && name != "ssp-rk2" && name != "ssp-rk3" && name != "rk4") {
    throw usage_error(program + ": --scheme '" + name + "' is not " + scheme_names);
  }
}

// driver(scheme named `name`, options)(u, rhs, extras...).
template <class S, class F, class... Extras>
funcmesh::time::run_summary run_scheme(const std::string& name, const funcmesh::time::options& o,
                                       S& u, F&& rhs, Extras&&... extras) {
  namespace time = funcmesh::time;
  auto with = [&](auto scheme) {
    return time::driver(scheme, o)(u, std::forward<F>(rhs), std::forward<Extras>(extras)...);
  };
  if (name == "euler") return with(time::forward_euler{});
  if (name == "ssp-rk2") return with(time::ssp_rk2{});
  if (name == "rk4") return with(time::rk4{});
  return with(time::ssp_rk3{});
}

}  // namespace example
