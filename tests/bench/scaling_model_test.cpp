// bench/scaling's model: part shapes from real local meshes, and the projected step's
// parts (compute, exchange, reductions) against the formulas docs/scaling.md states.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/local_mesh.hpp>
#include <funcmesh/partition/partitioning.hpp>

#include "../../bench/scaling/scaling_model.hpp"

namespace fm = funcmesh;
using scaling::index_t;

namespace {

// An 8 x 8 quad mesh cut in two halves of 8 x 4 (geometric bisection): each half owns 32
// cells, its halo is the other's 8-cell row, and it sends its own row.
std::vector<scaling::part_shape> halves() {
  const fm::mesh m = fm::box2d_quad(8, 8, {.lengths = {1, 2, 1}});
  fm::partition_options options;
  options.method = fm::partition_method::geometric;
  const std::vector<int> part = fm::partition_mesh(m, 2, options);
  std::vector<scaling::part_shape> shapes;
  for (const fm::local_mesh& l : fm::build_local_meshes(m, part, 2)) {
    shapes.push_back(scaling::shape_of(l));
  }
  return shapes;
}

scaling::step_kind step(double seconds_per_cell) {
  return {.name = "test",
          .rounds = 2,
          .halo_bytes_per_cell = 40,
          .reductions = 0.5,
          .seconds_per_cell = seconds_per_cell};
}

TEST(scaling_model, takes_a_parts_shape_from_its_local_mesh) {
  const auto shapes = halves();
  ASSERT_EQ(shapes.size(), 2u);
  for (int k = 0; k < 2; ++k) {
    const scaling::part_shape& s = shapes[static_cast<std::size_t>(k)];
    EXPECT_EQ(s.owned, 32);
    EXPECT_EQ(s.halo, 8);
    EXPECT_EQ(s.interior, 24);  // the row next to the cut borders the halo
    ASSERT_EQ(s.neighbour_parts.size(), 1u);
    EXPECT_EQ(s.neighbour_parts[0], 1 - k);
    EXPECT_EQ(s.send_cells[0], 8);
    EXPECT_EQ(s.receive_cells[0], 8);
  }
}

TEST(scaling_model, projects_compute_exchange_and_reductions) {
  const auto shapes = halves();
  scaling::network net;
  net.latency = 2e-6;
  net.bandwidth = 1e9;
  const scaling::part_time t = scaling::project_part(shapes[0], 0, 8, step(1e-6), net);
  EXPECT_DOUBLE_EQ(t.compute, 32e-6);
  // Two rounds of one message: a latency and 8 cells x 40 bytes at 1 GB/s.
  EXPECT_NEAR(t.exchange, 2 * (2e-6 + 320e-9), 1e-15);
  // Half a reduction a step, 2 log2(8) latencies each.
  EXPECT_NEAR(t.reduction, 0.5 * 2 * 3 * 2e-6, 1e-15);
  // One rank has no reduction.
  EXPECT_EQ(scaling::project_part(shapes[0], 0, 1, step(1e-6), net).reduction, 0);
}

TEST(scaling_model, hides_at_most_the_interior_of_a_round) {
  const auto shapes = halves();
  scaling::network net;
  net.latency = 10e-6;
  net.bandwidth = 1e12;
  net.hidden = 0.5;
  // Interior work per round: 24 cells x 1 us / 2 rounds = 12 us, more than the 10 us round.
  const double round = 10e-6 + 320e-12;
  const scaling::part_time big = scaling::project_part(shapes[0], 0, 2, step(1e-6), net);
  EXPECT_NEAR(big.exchange, 2 * (round - 0.5 * round), 1e-12);
  // Interior 24 x 0.1 us / 2 = 1.2 us: only that much can hide.
  const scaling::part_time small = scaling::project_part(shapes[0], 0, 2, step(1e-7), net);
  EXPECT_NEAR(small.exchange, 2 * (round - 0.5 * 1.2e-6), 1e-12);
}

TEST(scaling_model, overlapped_neighbours_pay_one_latency_and_share_the_link) {
  scaling::part_shape s;
  s.owned = 100;
  s.interior = 50;
  s.halo = 30;
  s.neighbour_parts = {1, 2, 3};
  s.send_cells = {10, 10, 10};
  s.receive_cells = {10, 10, 10};
  scaling::network net;
  net.latency = 1e-6;
  net.bandwidth = 400e6;  // 1 us a 400-byte message
  scaling::step_kind one = step(0);
  one.rounds = 1;
  EXPECT_NEAR(scaling::project_part(s, 0, 4, one, net).exchange, 3 * (1e-6 + 1e-6), 1e-15);
  net.neighbours_overlap = true;
  EXPECT_NEAR(scaling::project_part(s, 0, 4, one, net).exchange, 1e-6 + 3e-6, 1e-15);
}

TEST(scaling_model, scales_cells_by_the_size_and_halos_by_the_surface) {
  scaling::part_shape s;
  s.owned = 1000;
  s.interior = 900;
  s.halo = 100;
  s.neighbour_parts = {1};
  s.send_cells = {100};
  s.receive_cells = {100};
  const scaling::part_shape two_d = scaling::scaled(s, 4, 2);
  EXPECT_EQ(two_d.owned, 4000);
  EXPECT_EQ(two_d.halo, 200);
  EXPECT_EQ(two_d.interior, 4000 - 200);
  EXPECT_EQ(two_d.send_cells[0], 200);
  const scaling::part_shape three_d = scaling::scaled(s, 8, 3);
  EXPECT_EQ(three_d.halo, 400);
  EXPECT_EQ(three_d.neighbour_parts, s.neighbour_parts);
}

TEST(scaling_model, efficiency_is_the_mean_parts_compute_over_the_slowest_step) {
  auto shapes = halves();
  shapes[1].owned = 48;  // an imbalanced partition: the mean part has 40 cells
  scaling::network net;
  net.latency = 0;
  net.bandwidth = 1e15;
  const scaling::projection p = scaling::project(shapes, 2, step(1e-6), net);
  EXPECT_EQ(p.max_owned, 48);
  EXPECT_NEAR(p.efficiency, 40.0 / 48.0, 1e-6);
  EXPECT_DOUBLE_EQ(p.max_message_bytes, 320);
  // More ranks than parts: the same shapes, that count's reductions.
  net.latency = 1e-6;
  const scaling::projection wide = scaling::project(shapes, 1024, step(1e-6), net);
  EXPECT_NEAR(wide.slowest.reduction, 0.5 * 2 * 10 * 1e-6, 1e-15);
}

}  // namespace
