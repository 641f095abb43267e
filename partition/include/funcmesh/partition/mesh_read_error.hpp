// The error every mesh reader throws for a file it refuses (Gmsh .msh, the funcmesh mesh
// file): what() is "<file>:<position>: in <section>: <reason>", and each part can be
// read back on its own.
#pragma once

#include <string>

#include <funcmesh/core/error.hpp>

namespace funcmesh {

// A mesh file that cannot be read: its name, where (a line or a byte), the section and why.
class mesh_read_error : public error {
 public:
  // what() is "<file>:<position>: in <section>: <reason>"; empty parts are left out.
  mesh_read_error(std::string file, std::string position, std::string section, std::string reason);

  const std::string& file() const noexcept { return file_; }
  const std::string& position() const noexcept { return position_; }  // "line 12", "byte 3456"
  const std::string& section() const noexcept { return section_; }    // "$Nodes"
  const std::string& reason() const noexcept { return reason_; }

 private:
  std::string file_;
  std::string position_;
  std::string section_;
  std::string reason_;
};

}  // namespace funcmesh
