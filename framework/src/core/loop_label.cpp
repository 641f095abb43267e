#include <funcmesh/core/loop_label.hpp>

namespace funcmesh::exec {

std::string loop_label::text() const {
  std::string result = what;
  if (subject != nullptr) {
    result += subject->empty() ? std::string(" an unnamed grid function")
                               : " grid function '" + *subject + "'";
  }
  if (fused > 1) result += " (fused with " + std::to_string(fused - 1) + " more)";
  return result;
}

}  // namespace funcmesh::exec
