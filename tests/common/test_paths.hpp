// Test support: a folder the build names relative to the test's own executable (its
// FUNCMESH_TEST_PATH definitions, cmake/funcmesh_testing.cmake), made absolute at run time.
// Relative, the definition is the same in every clone, so the test compiles to the same
// object in each and a fresh clone takes it from the compiler cache.
#pragma once

#include <filesystem>

namespace funcmesh::testing {

inline std::filesystem::path beside_executable(const char* relative) {
  const auto executable = std::filesystem::read_symlink("/proc/self/exe");
  return std::filesystem::weakly_canonical(executable.parent_path() / relative);
}

}  // namespace funcmesh::testing
