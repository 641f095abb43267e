// write_atomically: writes a file through a stream into "<file>.part" and renames it, so
// that a failed or interrupted write never leaves a file that looks complete. Internal
// (detail): the framework's VTK and PNG writers and the XDMF descriptions use it.
#pragma once

#include <filesystem>
#include <functional>
#include <ostream>
#include <string_view>

namespace funcmesh::io::detail {

// `who` starts every error message ("funcmesh::io::write_vtu"); the message names `file`.
void write_atomically(const std::filesystem::path& file, std::string_view who,
                      const std::function<void(std::ostream&)>& fill);

// "<file>.part", next to the file, so the rename never crosses file systems.
std::filesystem::path temporary_for(const std::filesystem::path& file);
// Renames temporary to file; on failure removes temporary and throws naming both.
void commit(const std::filesystem::path& temporary, const std::filesystem::path& file,
            std::string_view who);

}  // namespace funcmesh::io::detail
