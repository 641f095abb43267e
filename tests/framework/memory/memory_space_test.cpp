// Memory spaces: names both ways, the registry, and clear errors for unknown spaces.
#include <gtest/gtest.h>

#include <algorithm>

#include <funcmesh/config.hpp>
#include <funcmesh/memory/memory.hpp>
#include <funcmesh/memory/memory_error.hpp>

namespace funcmesh::testing {

TEST(memory_space, names_round_trip) {
  EXPECT_EQ(to_string(host_space), "host");
  EXPECT_EQ(parse_memory_space("host"), host_space);
  EXPECT_EQ(to_string(simulated_space(1)), "sim:1");
  EXPECT_EQ(parse_memory_space("sim:1"), simulated_space(1));
  EXPECT_EQ(parse_memory_space("sim"), simulated_space(0));
  EXPECT_EQ(to_string(cuda_space(2)), config::cuda ? "cuda:2" : "kind1:2");
}

TEST(memory_space, bad_names_are_clear_errors) {
  EXPECT_THROW(parse_memory_space("gpu:0"), device_error);
  EXPECT_THROW(parse_memory_space("sim:x"), device_error);
  EXPECT_THROW(parse_memory_space("sim:-1"), device_error);
  try {
    parse_memory_space("tpu");
    FAIL();
  } catch (const device_error& e) {
    EXPECT_NE(std::string(e.what()).find("'tpu'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("available: host"), std::string::npos) << e.what();
  }
}

TEST(memory_space, available_spaces_lists_the_host_first_and_registered_devices) {
  simulated_kind();
  const auto spaces = available_spaces();
  ASSERT_FALSE(spaces.empty());
  EXPECT_EQ(spaces.front(), host_space);
  EXPECT_NE(std::find(spaces.begin(), spaces.end(), simulated_space(1)), spaces.end());
}

TEST(memory_space, a_second_manager_with_a_taken_name_is_refused) {
  simulated_kind();
  struct fake final : memory_manager {
    std::string_view name() const noexcept override { return "sim"; }
    int device_count() const override { return 0; }
    void* allocate(int, std::size_t) override { return nullptr; }
    void deallocate(int, void*) noexcept override {}
    void copy_to_host(int, void*, const void*, std::size_t) override {}
    void copy_from_host(int, void*, const void*, std::size_t) override {}
    void copy_between(int, void*, int, const void*, std::size_t) override {}
  };
  EXPECT_THROW(register_memory_manager(std::make_unique<fake>()), device_error);
}

TEST(memory_space, cross_kind_copies_work_in_every_direction) {
  const std::vector<int> values{3, 1, 4, 1, 5};
  std::vector<int> back(5);
  auto& sim = memory_manager_for(simulated_kind());
  void* d0 = sim.allocate(0, sizeof(int) * 5);
  void* d1 = sim.allocate(1, sizeof(int) * 5);
  copy_bytes(simulated_space(0), d0, host_space, values.data(), sizeof(int) * 5);
  copy_bytes(simulated_space(1), d1, simulated_space(0), d0, sizeof(int) * 5);
  copy_bytes(host_space, back.data(), simulated_space(1), d1, sizeof(int) * 5);
  sim.deallocate(0, d0);
  sim.deallocate(1, d1);
  EXPECT_EQ(back, values);
}

}  // namespace funcmesh::testing
