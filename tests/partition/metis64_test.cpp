// funcmesh's METIS calls with 64-bit indices (a METIS built with IDXTYPEWIDTH 64, as
// Spack's metis+int64): partitioning.cpp compiled against metis64/metis.h and run against
// the stub partitioner there. Debian's METIS is 32-bit, so this is the only place the
// 64-bit path is compiled and checked.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/dual_graph.hpp>
#include <funcmesh/partition/metis_error.hpp>
#include <funcmesh/partition/partitioning.hpp>

#include "metis64/metis64_stub.hpp"

namespace fm = funcmesh;

namespace {

fm::graph grid() { return fm::dual_graph(fm::box2d_quad(4, 4)); }

TEST(metis64, idx_t_is_64_bits) {
  static_assert(sizeof(idx_t) == 8);
  EXPECT_EQ(fm::metis_index_bits(), 64);
}

TEST(metis64, passes_the_graph_and_options_as_64_bit_indices) {
  const fm::graph g = grid();
  fm::partition_options options;
  options.seed = 7;
  options.imbalance = 1.05;
  const std::vector<int> part = fm::partition_graph(g, 4, options);
  const metis64::last_call& call = metis64::seen();
  EXPECT_EQ(call.function, "METIS_PartGraphKway");
  EXPECT_EQ(call.vertices, 16);
  EXPECT_EQ(call.parts, 4);
  ASSERT_EQ(call.offsets.size(), g.offsets.size());
  for (std::size_t k = 0; k < g.offsets.size(); ++k) EXPECT_EQ(call.offsets[k], g.offsets[k]);
  ASSERT_EQ(call.adjacency.size(), g.adjacency.size());
  for (std::size_t k = 0; k < g.adjacency.size(); ++k) {
    EXPECT_EQ(call.adjacency[k], g.adjacency[k]);
  }
  EXPECT_TRUE(call.weights.empty());
  EXPECT_EQ(call.options[METIS_OPTION_NUMBERING], 0);
  EXPECT_EQ(call.options[METIS_OPTION_SEED], 7);
  EXPECT_EQ(call.options[METIS_OPTION_UFACTOR], 50);
  EXPECT_EQ(call.options[METIS_OPTION_OBJTYPE], METIS_OBJTYPE_CUT);
  for (int v = 0; v < 16; ++v) EXPECT_EQ(part[static_cast<std::size_t>(v)], v * 4 / 16);
}

TEST(metis64, recursive_bisection_calls_its_own_function) {
  fm::partition_options options;
  options.method = fm::partition_method::metis_recursive;
  fm::partition_graph(grid(), 2, options);
  EXPECT_EQ(metis64::seen().function, "METIS_PartGraphRecursive");
}

TEST(metis64, takes_weights_past_32_bits) {
  // A total weight of 2^34: refused with a 32-bit idx_t, whole with a 64-bit one.
  fm::partition_options options;
  options.cell_weights.assign(16, fm::index_t{1} << 30);
  const std::vector<int> part = fm::partition_graph(grid(), 2, options);
  EXPECT_EQ(part.size(), 16u);
  const metis64::last_call& call = metis64::seen();
  ASSERT_EQ(call.weights.size(), 16u);
  for (const idx_t w : call.weights) EXPECT_EQ(w, idx_t{1} << 30);
}

TEST(metis64, a_metis_failure_is_a_metis_error) {
  metis64::fail_next_with(METIS_ERROR_MEMORY);
  try {
    fm::partition_graph(grid(), 2);
    FAIL() << "no error";
  } catch (const fm::metis_error& e) {
    EXPECT_NE(std::string(e.what()).find("METIS_ERROR_MEMORY"), std::string::npos) << e.what();
  }
}

}  // namespace
