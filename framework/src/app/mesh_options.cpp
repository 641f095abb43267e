// mesh_options: description and checks.
#include <funcmesh/app/mesh_options.hpp>

#include <algorithm>

#include <funcmesh/core/error.hpp>

namespace funcmesh::app {

const std::vector<std::string>& builtin_mesh_names() {
  static const std::vector<std::string> names{"box2d-quad", "box2d-tri", "box3d-hex", "box3d-tet"};
  return names;
}

const std::vector<std::string>& partitioner_names() {
  static const std::vector<std::string> names{"auto", "metis", "parmetis", "ptscotch", "hilbert"};
  return names;
}

std::string mesh_options::describe() const {
  return file.empty() ? builtin + " " + std::to_string(n) + "^d" : file;
}

void mesh_options::check() const {
  const auto& names = builtin_mesh_names();
  if (std::find(names.begin(), names.end(), builtin) == names.end()) {
    throw usage_error("--builtin '" + builtin +
                      "' is not box2d-quad, box2d-tri, box3d-hex or box3d-tet");
  }
  if (n < 1) throw usage_error("--n must be at least 1, got " + std::to_string(n));
  if (!(perturbation >= 0 && perturbation <= max_perturbation)) {
    throw usage_error("--perturbation must be in [0, " + std::to_string(max_perturbation) +
                      "], got " + std::to_string(perturbation));
  }
  const auto& partitioners = partitioner_names();
  if (std::find(partitioners.begin(), partitioners.end(), partitioner) == partitioners.end()) {
    throw usage_error("--partitioner '" + partitioner +
                      "' is not auto, metis, parmetis, ptscotch or hilbert");
  }
}

}  // namespace funcmesh::app
