// The non-template parts of face loops: boundary-flux resolution and argument checks.
#include <funcmesh/comm/face_loops.hpp>

#include <algorithm>
#include <string>

#include <funcmesh/comm/communicator.hpp>
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

std::vector<int> prepare_face_loop(const halo_state& out, const halo_state& u,
                                   const std::vector<std::string>& names, const char* call) {
  if (&out == &u) {
    throw error(std::string(call) +
                ": out and u are the same function: the loop would overwrite values its "
                "neighbours still read; write into a second function and swap");
  }
  if (!(out.layout() == u.layout())) {
    throw error(std::string(call) + ": out (" + out.describe() + ", " + out.layout().describe() +
                ") and u (" + u.describe() + ", " + u.layout().describe() +
                ") are on different layouts");
  }
  return boundary_ids(u.layout().faces(), names, call);
}

void check_flux_field_evaluated(bool evaluated, const std::string& name) {
  if (evaluated) return;
  throw error("funcmesh::sum_over_faces: the face flux field '" + name +
              "' is read before its first evaluate(u, flux, ...)");
}

void check_face_set(const face_set& faces, const distributed_layout& layout, const char* call) {
  if (&faces == &layout.faces()) return;
  std::string failure;
  if (faces.owned_count() != layout.owned_count() || faces.cell_count() != layout.total_count()) {
    failure = std::string(call) + ": the face set (" + std::to_string(faces.owned_count()) +
              " owned of " + std::to_string(faces.cell_count()) + " cells) is not of " +
              layout.describe() + "'s local mesh (" + std::to_string(layout.owned_count()) +
              " of " + std::to_string(layout.total_count()) + ")";
  } else if (faces.untagged_boundary_faces() > 0) {
    failure = std::string(call) + ": " + std::to_string(faces.untagged_boundary_faces()) +
              " domain-boundary face(s) of the face set carry no boundary physical group";
  }
  mpi::agree(mpi::communicator(layout.comm()), failure);
}

}  // namespace funcmesh::detail
