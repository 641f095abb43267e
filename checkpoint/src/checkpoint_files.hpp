// The names of checkpoint files: checkpoint_<step, 10 digits>.h5, so that names sort by
// step; and the complete ones in a directory, newest first (a .tmp is never listed).
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

namespace funcmesh::detail {

std::filesystem::path checkpoint_name(std::int64_t step);
std::vector<std::filesystem::path> checkpoints_in(const std::filesystem::path& dir);

}  // namespace funcmesh::detail
