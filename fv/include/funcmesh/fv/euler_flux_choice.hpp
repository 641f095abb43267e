// Euler's numerical flux chosen at run time (a command line's --flux): one switch per face
// over Rusanov, HLL, HLLC and Roe, each exactly antisymmetric, so one compiled face loop
// serves every choice.
#pragma once

#include <string>
#include <string_view>

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/fv/euler_fluxes.hpp>

namespace funcmesh::fv {

enum class euler_flux_kind { rusanov, hll, hllc, roe };

// "rusanov", "hll", "hllc" or "roe"; any other name throws std::invalid_argument that lists
// them.
euler_flux_kind parse_euler_flux(std::string_view name);
const char* name_of(euler_flux_kind kind);
// The names, comma-separated, in the order of the enum (for --help).
std::string euler_flux_names();

template <int D>
struct euler_flux {
  euler_flux_kind kind = euler_flux_kind::hllc;
  ideal_gas<D> gas{};
  double entropy_fix = euler_roe<D>{}.entropy_fix;

  FUNCMESH_DEVICE euler_state<D> operator()(const euler_state<D>& left, const euler_state<D>& right,
                                            const vec<double, 3>& n) const {
    switch (kind) {
      case euler_flux_kind::rusanov:
        return euler_rusanov<D>{gas}(left, right, n);
      case euler_flux_kind::hll:
        return euler_hll<D>{gas}(left, right, n);
      case euler_flux_kind::roe:
        return euler_roe<D>{gas, entropy_fix}(left, right, n);
      case euler_flux_kind::hllc:
        break;
    }
    return euler_hllc<D>{gas}(left, right, n);
  }
};

}  // namespace funcmesh::fv
