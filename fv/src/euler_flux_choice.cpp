// The names of Euler's numerical fluxes, for command lines.
#include <funcmesh/fv/euler_flux_choice.hpp>

#include <stdexcept>
#include <string>

namespace funcmesh::fv {

namespace {
constexpr euler_flux_kind kinds[] = {euler_flux_kind::rusanov, euler_flux_kind::hll,
                                     euler_flux_kind::hllc, euler_flux_kind::roe};
}

const char* name_of(euler_flux_kind kind) {
  switch (kind) {
    case euler_flux_kind::rusanov:
      return "rusanov";
    case euler_flux_kind::hll:
      return "hll";
    case euler_flux_kind::hllc:
      return "hllc";
    case euler_flux_kind::roe:
      return "roe";
  }
  return "?";
}

std::string euler_flux_names() {
  std::string names;
  for (const euler_flux_kind kind : kinds)
    names += (names.empty() ? "" : ", ") + std::string(name_of(kind));
  return names;
}

euler_flux_kind parse_euler_flux(std::string_view name) {
  for (const euler_flux_kind kind : kinds) {
    if (name == name_of(kind)) return kind;
  }
  throw std::invalid_argument("unknown Euler flux '" + std::string(name) + "' (choose one of " +
                              euler_flux_names() + ")");
}

}  // namespace funcmesh::fv
