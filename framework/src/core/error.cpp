// The messages of the errors whose constructors compose them.
#include <funcmesh/core/error.hpp>

#include <cstdio>
#include <string>
#include <utility>

namespace funcmesh {

namespace {
std::string describe_bytes(std::size_t bytes) {
  std::string text = std::to_string(bytes) + " bytes";
  constexpr double mib = 1024.0 * 1024.0;
  if (bytes >= (1u << 20)) {
    char scaled[32];
    std::snprintf(scaled, sizeof scaled, " (%.1f MiB)", static_cast<double>(bytes) / mib);
    text += scaled;
  }
  return text;
}
}  // namespace

allocation_error::allocation_error(std::size_t bytes, memory_space space, const std::string& reason)
    : error("cannot allocate " + describe_bytes(bytes) + " in " + to_string(space) + ": " + reason),
      bytes_(bytes),
      space_(space) {}

index_error::index_error(index_t index, index_t size)
    : error("index " + std::to_string(index) + " outside [0, " + std::to_string(size) + ")") {}

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

namespace detail {
void throw_index_error(index_t index, index_t size) { throw index_error(index, size); }
}  // namespace detail

}  // namespace funcmesh
