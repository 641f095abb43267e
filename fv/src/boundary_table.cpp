// The fv module's checks of a face set against what a part asks of it: the mesh's
// dimension, the geometry stored, the boundary groups named.
#include <funcmesh/fv/boundary_table.hpp>
#include <funcmesh/fv/gradient.hpp>

#include <string>
#include <vector>

#include <funcmesh/core/error.hpp>

namespace funcmesh::fv::detail {

void check_gradient_faces(const face_set& faces, int dimension, bool offsets, const char* call) {
  if (faces.dimension() != dimension) {
    throw error(std::string(call) + "<" + std::to_string(dimension) + ">: the mesh is " +
                std::to_string(faces.dimension()) +
                "-D (the template argument is the mesh's "
                "dimension)");
  }
  if (offsets && !faces.stored_geometry().cell_offsets) {
    throw error(std::string(call) +
                ": the face set stores no cell offsets (build it with face_geometry::cell_offsets "
                "on, as the default face_geometry{} does)");
  }
}

mirrored_ids kernel_ids(const std::vector<int>& ids) {
  if (ids.size() > static_cast<std::size_t>(max_mirrored_groups)) {
    throw error("funcmesh::fv::least_squares_gradient: " + std::to_string(ids.size()) +
                " mirrored boundary groups, more than the " + std::to_string(max_mirrored_groups) +
                " a fit holds");
  }
  mirrored_ids result;
  for (const int id : ids) result.id[result.count++] = id;
  return result;
}

}  // namespace funcmesh::fv::detail

namespace funcmesh::fv {

mirrored_groups mirrored(const face_set& faces, const std::vector<std::string>& names) {
  mirrored_groups result;
  for (const std::string& name : names) {
    const int id = faces.physical_id(name);
    if (id == 0) {
      std::string known;
      for (const auto& group : faces.boundary_groups()) known += " \"" + group.second + "\"";
      throw error("funcmesh::fv::mirrored: the mesh has no boundary group \"" + name +
                  "\" (its boundary groups:" + (known.empty() ? std::string(" none") : known) +
                  ")");
    }
    result.ids.push_back(id);
  }
  return result;
}

}  // namespace funcmesh::fv

namespace funcmesh::fv::detail {

std::vector<int> boundary_table_ids(const face_set& faces, const std::vector<std::string>& names,
                                    const char* call) {
  auto groups = [&] {
    std::string known;
    for (const auto& group : faces.boundary_groups()) known += " \"" + group.second + "\"";
    return "the mesh's boundary groups are" + (known.empty() ? std::string(" none") : known);
  };
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
