// is_mesh_file: the HDF5 signature, looked for where HDF5 puts it (offset 0, or after a
// user block of 512, 1024, 2048, ... bytes), without HDF5, so that choosing a reader for
// --mesh works in any build.
#include <array>
#include <cstring>
#include <fstream>

#include <funcmesh/comm/mesh_file.hpp>

namespace funcmesh {

bool is_mesh_file(const std::filesystem::path& path) {
  constexpr std::array<char, 8> signature = {'\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n'};
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  for (std::streamoff at = 0; at + 8 <= size; at = at == 0 ? 512 : at * 2) {
    std::array<char, 8> found{};
    in.seekg(at);
    if (!in.read(found.data(), found.size())) return false;
    if (found == signature) return true;
  }
  return false;
}

}  // namespace funcmesh
