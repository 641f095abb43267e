// The METIS link and the status checks every later METIS call goes through.
#include <gtest/gtest.h>

#include <metis.h>

#include <algorithm>
#include <vector>

#include <funcmesh/partition.hpp>
#include <funcmesh/partition/metis_error.hpp>

namespace funcmesh::testing {

TEST(metis, statuses_other_than_ok_throw_with_their_name_and_the_call) {
  EXPECT_NO_THROW(check_metis(METIS_OK, "METIS_PartGraphKway"));
  try {
    check_metis(METIS_ERROR_INPUT, "METIS_PartGraphKway");
    FAIL();
  } catch (const metis_error& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.status(), METIS_ERROR_INPUT);
    EXPECT_NE(message.find("METIS_PartGraphKway"), std::string::npos) << message;
    EXPECT_NE(message.find("METIS_ERROR_INPUT"), std::string::npos) << message;
  }
  EXPECT_EQ(metis_status_name(METIS_ERROR_MEMORY), "METIS_ERROR_MEMORY");
  EXPECT_EQ(metis_status_name(12345), "unknown METIS status");
}

TEST(metis, index_width_matches_the_header) {
  EXPECT_EQ(metis_index_bits(), static_cast<int>(8 * sizeof(idx_t)));
  EXPECT_EQ(metis_real_bits(), static_cast<int>(8 * sizeof(real_t)));
}

TEST(metis, partitions_a_ring_of_eight_into_two_connected_halves) {
  // The ring 0-1-...-7-0 in CSR form: vertex v has neighbours v-1 and v+1.
  idx_t vertices = 8, constraints = 1, parts = 2, cut = 0;
  std::vector<idx_t> offsets{0}, adjacency, part(8, -1);
  for (idx_t v = 0; v < 8; ++v) {
    adjacency.push_back((v + 7) % 8);
    adjacency.push_back((v + 1) % 8);
    offsets.push_back(static_cast<idx_t>(adjacency.size()));
  }
  check_metis(
      METIS_PartGraphKway(&vertices, &constraints, offsets.data(), adjacency.data(), nullptr,
                          nullptr, nullptr, &parts, nullptr, nullptr, nullptr, &cut, part.data()),
      "METIS_PartGraphKway");
  EXPECT_EQ(cut, 2);  // a ring cut into two arcs crosses two edges
  EXPECT_EQ(std::count(part.begin(), part.end(), 0), 4);
  EXPECT_EQ(std::count(part.begin(), part.end(), 1), 4);
}

}  // namespace funcmesh::testing
