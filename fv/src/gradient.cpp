// fv's gradients' non-templated parts: the checks of a face set against what a gradient
// asks of it (the mesh's dimension, the offsets stored) and the mirrored groups by name.
#include <funcmesh/fv/gradient.hpp>

#include <string>
#include <vector>

#include <funcmesh/core/error.hpp>
#include <funcmesh/fv/boundary_table.hpp>

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
      throw error("funcmesh::fv::mirrored: the mesh has no boundary group \"" + name +
                  "\" (its boundary groups:" + detail::quoted_boundary_groups(faces) + ")");
    }
    result.ids.push_back(id);
  }
  return result;
}

}  // namespace funcmesh::fv
