// boundary_table's checks of the groups named against the mesh's, and the mesh's boundary
// groups as error messages list them.
#include <funcmesh/fv/boundary_table.hpp>

#include <string>
#include <vector>

#include <funcmesh/core/error.hpp>

namespace funcmesh::fv::detail {

std::string quoted_boundary_groups(const face_set& faces) {
  std::string known;
  for (const auto& group : faces.boundary_groups()) known += " \"" + group.second + "\"";
  return known.empty() ? std::string(" none") : known;
}

std::vector<int> boundary_table_ids(const face_set& faces, const std::vector<std::string>& names,
                                    const char* call) {
  auto groups = [&] { return "the mesh's boundary groups are" + quoted_boundary_groups(faces); };
  if (names.size() > static_cast<std::size_t>(max_boundary_groups)) {
    throw error(std::string(call) + ": " + std::to_string(names.size()) +
                " boundary conditions, more than the " + std::to_string(max_boundary_groups) +
                " a table holds");
  }
  std::vector<int> ids;
  for (std::size_t k = 0; k < names.size(); ++k) {
    const int id = faces.physical_id(names[k]);
    if (id == 0) {
      throw error(std::string(call) + ": a condition for the boundary group \"" + names[k] +
                  "\", which the mesh does not have (" + groups() + ")");
    }
    for (std::size_t j = 0; j < k; ++j) {
      if (names[j] == names[k]) {
        throw error(std::string(call) + ": two conditions for the boundary group \"" + names[k] +
                    "\"");
      }
    }
    ids.push_back(id);
  }
  std::string missing;
  for (const auto& group : faces.boundary_groups()) {
    bool named = false;
    for (const int id : ids) named = named || id == group.first;
    if (!named) missing += " \"" + group.second + "\"";
  }
  if (!missing.empty()) {
    throw error(std::string(call) + ": no boundary condition for the group(s)" + missing + " (" +
                groups() + "; every one needs a condition)");
  }
  return ids;
}

}  // namespace funcmesh::fv::detail
