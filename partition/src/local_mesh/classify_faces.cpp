// Face kinds of a local mesh from the owned/halo split alone: local cells below
// owned_count are owned, so each face needs only its two cell indices.
#include <funcmesh/partition/local_mesh.hpp>

#include <string>

#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/mesh_faces.hpp>

namespace funcmesh {

std::vector<face_kind> classify_faces(const local_mesh& m, const mesh_faces& local_faces) {
  const index_t cells = m.cells.cell_count();
  std::vector<face_kind> kinds;
  kinds.reserve(local_faces.cells.size());
  for (std::size_t f = 0; f < local_faces.cells.size(); ++f) {
    const auto [first, second] = local_faces.cells[f];
    if (first < 0 || first >= cells || second >= cells) {
      throw error("funcmesh::classify_faces: face " + std::to_string(f) + " references cell " +
                  std::to_string(first < 0 || first >= cells ? first : second) +
                  ", but the local mesh has " + std::to_string(cells) +
                  " cells (faces not built from this local mesh?)");
    }
    const bool first_owned = first < m.owned_count;
    if (second < 0) {
      kinds.push_back(first_owned ? face_kind::domain_boundary : face_kind::halo);
    } else {
      const bool second_owned = second < m.owned_count;
      kinds.push_back(first_owned && second_owned   ? face_kind::interior
                      : first_owned || second_owned ? face_kind::partition_boundary
                                                    : face_kind::halo);
    }
  }
  return kinds;
}

}  // namespace funcmesh
