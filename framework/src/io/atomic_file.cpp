#include <funcmesh/io/detail/atomic_file.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>
#include <system_error>

#include <funcmesh/core/error.hpp>

namespace funcmesh::io::detail {

std::filesystem::path temporary_for(const std::filesystem::path& file) {
  std::filesystem::path temporary = file;
  temporary += ".part";
  return temporary;
}

void commit(const std::filesystem::path& temporary, const std::filesystem::path& file,
            std::string_view who) {
  std::error_code failure;
  std::filesystem::rename(temporary, file, failure);
  if (failure) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw error(std::string(who) + ": cannot write " + file.string() + ": renaming " +
                temporary.string() + " failed: " + failure.message());
  }
}

void write_atomically(const std::filesystem::path& file, std::string_view who,
                      const std::function<void(std::ostream&)>& fill) {
  const std::filesystem::path temporary = temporary_for(file);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) {
      throw error(std::string(who) + ": cannot write " + file.string() + ": cannot open " +
                  temporary.string() + ": " + std::strerror(errno));
    }
    try {
      fill(out);
      out.flush();
    } catch (...) {
      out.close();
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw;
    }
    if (!out) {
      const std::string reason = std::strerror(errno);
      out.close();
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw error(std::string(who) + ": cannot write " + file.string() + ": writing " +
                  temporary.string() + " failed: " + reason);
    }
  }
  commit(temporary, file, who);
}

}  // namespace funcmesh::io::detail
