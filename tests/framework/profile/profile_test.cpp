// The profiling hooks: counting callbacks see every loop begin and end, named by its label,
// on the serial and OpenMP executors; clear_hooks stops them; the table's rows and encoding.
#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <funcmesh/framework.hpp>
#include <funcmesh/profile/device_activity.hpp>
#include <funcmesh/profile/profile.hpp>

#include "../../common/executor_params.hpp"

namespace fm = funcmesh;
namespace profile = funcmesh::profile;

namespace {

// begin and end counts per region name, and the bytes reported; thread-safe, as hooks are.
struct counting_tool {
  std::mutex mutex;
  std::map<std::string, int> begins, ends;
  std::uint64_t bytes = 0;
  int depth = 0, deepest = 0;

  profile::hooks hooks() {
    profile::hooks h;
    h.begin = [this](const profile::region& r) {
      const std::lock_guard lock(mutex);
      ++begins[std::string(r.name)];
      deepest = std::max(deepest, ++depth);
    };
    h.end = [this](const profile::region& r) {
      const std::lock_guard lock(mutex);
      ++ends[std::string(r.name)];
      --depth;
    };
    h.bytes_sent = [this](const profile::region&, std::uint64_t n) {
      const std::lock_guard lock(mutex);
      bytes += n;
    };
    return h;
  }
};

// Installs a tool's hooks for one test and puts back whatever was there (FUNCMESH_PROFILE's
// table, when the tests run under it).
class installed {
 public:
  explicit installed(profile::hooks h) : previous_(profile::set_hooks(std::move(h))) {}
  ~installed() { profile::set_hooks(std::move(previous_)); }

 private:
  profile::hooks previous_;
};

class profile_hooks : public ::testing::TestWithParam<fm::executor> {};

TEST_P(profile_hooks, see_every_assignment_begin_and_end_with_its_label) {
  fm::grid_function<double> u(1000, "u"), v(1000, "v");
  counting_tool tool;
  {
    const installed on(tool.hooks());
    EXPECT_TRUE(profile::active());
    for (int k = 0; k < 3; ++k) u.assign(fm::pure(1.0) + 2.0, {.on = GetParam()});
    fm::run({.on = GetParam()}, fm::set(u, fm::pure(2.0)), fm::set(v, u * 3.0));
  }
  EXPECT_EQ(tool.begins["assignment to grid function 'u'"], 3);
  EXPECT_EQ(tool.ends["assignment to grid function 'u'"], 3);
  EXPECT_EQ(tool.begins["assignment to grid function 'u' (fused with 1 more)"], 1);
  EXPECT_EQ(tool.begins, tool.ends);
  EXPECT_EQ(tool.depth, 0);
  EXPECT_EQ(tool.bytes, 0u);  // no halo rounds without MPI
  EXPECT_DOUBLE_EQ(v.read()[0], 6.0);

  // Taken away: the same loops call nothing.
  const auto before = tool.begins;
  const profile::hooks previous = profile::clear_hooks();
  u.assign(fm::pure(4.0), {.on = GetParam()});
  EXPECT_FALSE(profile::active());
  EXPECT_EQ(tool.begins, before);
  profile::set_hooks(previous);
}

TEST_P(profile_hooks, see_reductions_too) {
  fm::grid_function<double> u(500, "u");
  u = fm::pure(1.0);
  counting_tool tool;
  double total = 0;
  {
    const installed on(tool.hooks());
    total = fm::sum(u, {.on = GetParam()});
  }
  EXPECT_DOUBLE_EQ(total, 500.0);
  int calls = 0;
  for (const auto& [name, count] : tool.begins) calls += count;
  EXPECT_GE(calls, 1);
  EXPECT_EQ(tool.begins, tool.ends);
}

INSTANTIATE_TEST_SUITE_P(host, profile_hooks, ::testing::ValuesIn(test_support::host_executors()),
                         test_support::executor_name{});

TEST(profile_regions, are_interned_by_text) {
  const profile::region a = profile::named("a region");
  const profile::region b = profile::named(std::string("a ") + "region");
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.name, "a region");
  EXPECT_EQ(a.name.data()[a.name.size()], '\0');  // NUL-terminated, for NVTX
  EXPECT_NE(profile::named("another region").id, a.id);
}

TEST(profile_regions, follow_a_renamed_or_reused_subject) {
  // The label cache keys on pointers: a function freed and another made at its address, or
  // a name changed in place, must not keep the old text.
  std::string name = "first";
  const fm::exec::loop_label label{"assignment to", &name, 1};
  EXPECT_EQ(profile::of(label).name, "assignment to grid function 'first'");
  EXPECT_EQ(profile::of(label).id, profile::of(label).id);
  name = "second";
  EXPECT_EQ(profile::of(label).name, "assignment to grid function 'second'");
  const fm::exec::loop_label fused{"assignment to", &name, 3};
  EXPECT_EQ(profile::of(fused).name, "assignment to grid function 'second' (fused with 2 more)");
  EXPECT_EQ(profile::of(fm::exec::loop_label{"sum"}).name, "sum");
}

TEST(profile_scope, ends_when_the_loop_throws) {
  counting_tool tool;
  const installed on(tool.hooks());
  fm::grid_function<double> u(100, "u");
  EXPECT_THROW(fm::exec::for_each<fm::exec::host_compiler>(
                   fm::executor::serial(), 0, 10,
                   [](fm::index_t i) {
                     if (i == 5) throw fm::error("x");
                   },
                   fm::exec::loop_shape{true, 1}, fm::exec::loop_label{"throwing loop"}),
               fm::error);
  EXPECT_EQ(tool.begins["throwing loop"], 1);
  EXPECT_EQ(tool.ends["throwing loop"], 1);
}

TEST(profile_table, merges_ranks_by_label_and_sorts_by_time) {
  const std::vector<profile::table_entry> rank0 = {
      {"assignment to grid function 'u'", 10, 1.0, 0},
      {"halo exchange of 'u'", 10, 0.5, 4000},
  };
  // Rank 1 lacks one label and has one of its own: zero where missing.
  const std::vector<profile::table_entry> rank1 = {
      {"assignment to grid function 'u'", 10, 3.0, 0},
      {"only on rank 1", 2, 0.25, 0},
  };
  const std::string text =
      profile::format_table({profile::decode_entries(profile::encode_entries(rank0)), rank1});
  EXPECT_EQ(text.rfind("funcmesh profile (2 ranks)\n", 0), 0u) << text;
  EXPECT_NE(text.find("halo bytes"), std::string::npos);
  const auto u = text.find("assignment to grid function 'u'");
  const auto halo = text.find("halo exchange of 'u'");
  const auto only = text.find("only on rank 1");
  ASSERT_NE(u, std::string::npos);
  ASSERT_NE(halo, std::string::npos);
  ASSERT_NE(only, std::string::npos);
  EXPECT_LT(u, halo);  // 2.0 s mean before 0.25 s and 0.125 s
  EXPECT_LT(halo, only);
  // u: 10 calls, mean 2 s over ranks, 200000 us per call, max/mean 3/2.
  const std::string u_line = text.substr(u, text.find('\n', u) - u);
  EXPECT_NE(u_line.find(" 10 "), std::string::npos) << u_line;
  EXPECT_NE(u_line.find("2.000000"), std::string::npos) << u_line;
  EXPECT_NE(u_line.find("200000.000"), std::string::npos) << u_line;
  EXPECT_NE(u_line.find("1.50"), std::string::npos) << u_line;
  const std::string halo_line = text.substr(halo, text.find('\n', halo) - halo);
  EXPECT_NE(halo_line.find(" 4000"), std::string::npos) << halo_line;
  EXPECT_NE(halo_line.find("2.00"), std::string::npos) << halo_line;  // all on rank 0
}

// Device activity: four more columns, summed over ranks, only where a device ran loops.
TEST(profile_table, device_activity_gets_four_columns_summed_over_ranks) {
  const std::vector<profile::table_entry> rank0 = {
      {"assignment to grid function 'u'", 10, 1.0, 0, 10, 0, 1, 0},
      {"halo exchange of grid function 'u'", 10, 0.5, 4000, 20, 20, 10, 10},
  };
  const std::vector<profile::table_entry> rank1 = {
      {"assignment to grid function 'u'", 10, 1.0, 0, 10, 1, 0, 0},
  };
  const std::string text =
      profile::format_table({profile::decode_entries(profile::encode_entries(rank0)), rank1});
  const auto header = text.substr(text.find('\n') + 1);
  EXPECT_NE(header.find("launches"), std::string::npos) << text;
  EXPECT_NE(header.find("syncs"), std::string::npos) << text;
  const auto u = text.find("assignment to grid function 'u'");
  const std::string u_line = text.substr(u, text.find('\n', u) - u);
  // 20 launches over the two ranks, 1 sync, 1 copy host -> device, 0 back.
  EXPECT_NE(u_line.find("         20        1        1        0"), std::string::npos) << u_line;
  const std::vector<profile::table_entry> host_only = {{"a", 1, 0.5, 7}};
  EXPECT_EQ(profile::format_table({host_only}).find("launches"), std::string::npos);
}

// The simulated device's loops reach the table through the live counters.
TEST(profile_table, entries_carry_the_device_activity_of_their_label) {
  fm::reset_device_activity();
  fm::grid_function<double> u(100, 0, "device_u");
  u.assign(fm::pure(2.0), {.on = fm::executor::simulated_device(0)});
  u.assign(u * 3.0, {.on = fm::executor::simulated_device(0)});
  (void)u.read();  // one copy back to the host, outside any loop
  std::uint64_t launches = 0, to_host = 0;
  for (const profile::table_entry& e : profile::table_entries()) {
    if (e.name == "assignment to grid function 'device_u'") launches += e.launches;
    if (e.name == fm::outside_any_loop) to_host += e.copies_to_host;
  }
  EXPECT_EQ(launches, 2u);
  EXPECT_EQ(to_host, 1u);
}

TEST(profile_table, encoding_round_trips) {
  const std::vector<profile::table_entry> entries = {
      {"a", 1, 0.5, 7, 1, 2, 3, 4}, {"", 0, 0, 0}, {std::string(300, 'x'), 3, 1e-9, 1}};
  const auto back = profile::decode_entries(profile::encode_entries(entries));
  ASSERT_EQ(back.size(), entries.size());
  for (std::size_t k = 0; k < entries.size(); ++k) {
    EXPECT_EQ(back[k].name, entries[k].name);
    EXPECT_EQ(back[k].calls, entries[k].calls);
    EXPECT_EQ(back[k].seconds, entries[k].seconds);
    EXPECT_EQ(back[k].bytes, entries[k].bytes);
    EXPECT_EQ(back[k].launches, entries[k].launches);
    EXPECT_EQ(back[k].synchronizations, entries[k].synchronizations);
    EXPECT_EQ(back[k].copies_from_host, entries[k].copies_from_host);
    EXPECT_EQ(back[k].copies_to_host, entries[k].copies_to_host);
  }
  EXPECT_TRUE(profile::decode_entries("").empty());
}

}  // namespace
