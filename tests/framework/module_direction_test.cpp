// funcmesh::framework is MPI-free: a translation unit that links only the framework
// does not even see MPI's include path (the build enforces the module direction).
#include <gtest/gtest.h>

#include <funcmesh/framework.hpp>

#if __has_include(<mpi.h>)
#error "mpi.h is visible to a framework-only target: the module direction is broken"
#endif

TEST(module_direction, the_framework_umbrella_compiles_without_mpi) {
  EXPECT_FALSE(funcmesh::config::version.empty());
  EXPECT_EQ(funcmesh::config::backends.front(), "serial");
}
