// The non-template parts of the face sums: boundary fluxes resolved to physical ids (every
// group of the global mesh needs one, so every part decides alike), and the size check of
// a read at neighbours.
#include <funcmesh/faces/face_sum.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include <funcmesh/core/error.hpp>

namespace funcmesh::detail {

std::vector<int> boundary_ids(const face_set& faces, const std::vector<std::string>& names,
                              const char* call) {
  std::vector<int> ids;
  for (const std::string& name : names) {
    if (name == other_groups_name) {
      if (std::ranges::find(ids, any_other_group) != ids.end()) {
        throw agreed_error(std::string(call) + ": on_other_groups given twice");
      }
      ids.push_back(any_other_group);
      continue;
    }
    const int id = faces.physical_id(name);
    if (id == 0) {
      std::string known;
      for (const auto& group : faces.boundary_groups()) known += " \"" + group.second + "\"";
      throw agreed_error(std::string(call) + ": no boundary physical group named \"" + name +
                         "\" (the mesh has" + (known.empty() ? std::string(" none") : known) + ")");
    }
    if (std::ranges::find(ids, id) != ids.end()) {
      throw agreed_error(std::string(call) + ": two boundary fluxes for group \"" + name + "\"");
    }
    ids.push_back(id);
  }
  // Every group of the global mesh, not only this rank's faces: all ranks agree.
  const bool others_covered = std::ranges::find(ids, any_other_group) != ids.end();
  for (const auto& [id, name] : faces.boundary_groups()) {
    if (!others_covered && std::ranges::find(ids, id) == ids.end()) {
      throw agreed_error(std::string(call) + ": no boundary flux for physical group \"" + name +
                         "\" (id " + std::to_string(id) + "); pass on(\"" + name + "\", flux)");
    }
  }
  if (faces.untagged_boundary_faces() > 0) {
    throw error(std::string(call) + ": " + std::to_string(faces.untagged_boundary_faces()) +
                " domain-boundary face(s) of this part carry no boundary physical group "
                "(untagged boundary): tag every boundary face");
  }
  return ids;
}

void check_face_read(const face_set& faces, const grid_read& read, const char* call) {
  if (read.total_size >= faces.cell_count()) return;
  throw error(std::string(call) + ": reads " + read.describe() + " at neighbours, but it has " +
              std::to_string(read.total_size) + " values and the face set's mesh " +
              std::to_string(faces.cell_count()) + " cells (owned + halo): a function of " +
              "another mesh?");
}

}  // namespace funcmesh::detail
