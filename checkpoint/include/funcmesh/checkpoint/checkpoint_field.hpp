// checkpoint_field: one distributed function as a checkpoint sees it, without its type:
// its name, its value type as a tag ("f64" times components), and its owned values on the
// host. checkpoint_writer::write and restart make them from dist_function<double> and
// dist_function<vec<double, N>>.
#pragma once

#include <string>
#include <type_traits>

#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/parallel_output.hpp>

namespace funcmesh::detail {

struct checkpoint_field {
  std::string name;
  int components = 1;            // doubles per cell
  const double* read = nullptr;  // owned values to write (owned_size * components)
  double* write = nullptr;       // where a restart puts them
};

// The record of `f` whose host values `access` holds (a read or a write access).
template <class T, class Tag, class Access>
checkpoint_field record_of(const dist_function<T, Tag>& f, const Access& access) {
  // The widths the parallel output knows (field_width): double and vec<double, N>.
  constexpr bool known = requires { field_width<T>::value; };
  static_assert(known,
                "funcmesh::checkpoint: fields are dist_function<double> or "
                "dist_function<vec<double, N>>");
  checkpoint_field record{f.name(), field_width<T>::value, nullptr, nullptr};
  using element = std::remove_pointer_t<decltype(access.data())>;
  if constexpr (std::is_const_v<element>) {
    record.read = reinterpret_cast<const double*>(access.data());
  } else {
    record.write = reinterpret_cast<double*>(access.data());
  }
  return record;
}

}  // namespace funcmesh::detail
