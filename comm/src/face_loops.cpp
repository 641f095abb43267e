// The non-template parts of the distributed face loops: argument checks (agreed over the
// layout's ranks where a rank may differ). Boundary-flux resolution is the faces module's.
#include <funcmesh/comm/face_loops.hpp>

#include <string>

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/core/error.hpp>

namespace funcmesh::detail {

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
