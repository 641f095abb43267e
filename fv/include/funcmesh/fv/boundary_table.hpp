// Boundary conditions by physical group, chosen at run time: a small table from the mesh's
// boundary group ids to conditions (any trivially copyable type), which a boundary flux
// looks up with face.physical inside a kernel. Built with every group's name checked.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/faces/face_set.hpp>

namespace funcmesh::fv {

// At most this many boundary groups (the table travels with each kernel's arguments).
inline constexpr int max_boundary_groups = 16;

template <class Condition>
struct boundary_table {
  int count = 0;
  int ids[max_boundary_groups] = {};
  Condition conditions[max_boundary_groups] = {};

  // The condition of boundary group `physical` (face_view::physical). Every boundary group
  // of the mesh has one (make_boundary_table checks it); an id not in the table (a halo
  // cell's outer face, which no flux of an owned cell reads) gets the first.
  FUNCMESH_DEVICE const Condition& at(int physical) const {
    for (int k = 0; k < count; ++k) {
      if (ids[k] == physical) return conditions[k];
    }
    return conditions[0];
  }
};

namespace detail {
// The physical ids of `names`, in order. Throws an error that lists the mesh's boundary
// groups when a name is not one of them or is given twice, or when a boundary group of
// the mesh is left without a condition; only global facts decide, so every rank throws
// alike.
std::vector<int> boundary_table_ids(const face_set& faces, const std::vector<std::string>& names,
                                    const char* call);
// ' "left" "right"': the mesh's boundary groups, quoted, each after a space (" none").
std::string quoted_boundary_groups(const face_set& faces);
}  // namespace detail

// The table of conditions by group name: every boundary group of the mesh exactly once.
template <class Condition>
boundary_table<Condition> make_boundary_table(
    const face_set& faces, const std::vector<std::pair<std::string, Condition>>& by_group,
    const char* call = "funcmesh::fv::make_boundary_table") {
  std::vector<std::string> names;
  for (const auto& entry : by_group) names.push_back(entry.first);
  const std::vector<int> ids = detail::boundary_table_ids(faces, names, call);
  boundary_table<Condition> table;
  table.count = static_cast<int>(ids.size());
  for (std::size_t k = 0; k < ids.size(); ++k) {
    table.ids[k] = ids[k];
    table.conditions[k] = by_group[k].second;
  }
  return table;
}

}  // namespace funcmesh::fv
