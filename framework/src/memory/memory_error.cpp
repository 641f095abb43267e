// The message of allocation_error: the bytes (and MiB from 1 MiB on), the space, why.
#include <funcmesh/memory/memory_error.hpp>

#include <cstdio>
#include <string>

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

}  // namespace funcmesh
