// The message of mesh_read_error: "<file>:<position>: in <section>: <reason>".
#include <funcmesh/partition/mesh_read_error.hpp>

#include <string>
#include <utility>

namespace funcmesh {

namespace {
std::string mesh_read_message(const std::string& file, const std::string& position,
                              const std::string& section, const std::string& reason) {
  std::string text = file;
  if (!position.empty()) text += ":" + position;
  text += ": ";
  if (!section.empty()) text += "in " + section + ": ";
  return text + reason;
}
}  // namespace

mesh_read_error::mesh_read_error(std::string file, std::string position, std::string section,
                                 std::string reason)
    : error(mesh_read_message(file, position, section, reason)),
      file_(std::move(file)),
      position_(std::move(position)),
      section_(std::move(section)),
      reason_(std::move(reason)) {}

}  // namespace funcmesh
