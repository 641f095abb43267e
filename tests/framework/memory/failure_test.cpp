// Failures in the middle of coherence work: a copy that throws, an allocation that
// cannot be made, memory that cannot be adopted. State must stay consistent, nothing may
// leak, and the error must say what failed.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <thread>
#include <vector>

#include <funcmesh/memory/memory.hpp>
#include <funcmesh/memory/memory_error.hpp>

namespace funcmesh::testing {

namespace {

// A device kind whose copies can be made to fail, and which counts its allocations.
struct faulty_state {
  std::atomic<bool> fail_copies{false};
  std::atomic<long> allocations{0};
  std::atomic<long> deallocations{0};
};

faulty_state& faults() {
  static faulty_state state;
  return state;
}

class faulty_manager final : public memory_manager {
 public:
  std::string_view name() const noexcept override { return "faulty"; }
  int device_count() const override { return 1; }
  void* allocate(int, std::size_t bytes) override {
    if (bytes == 0) return nullptr;
    ++faults().allocations;
    return std::malloc(bytes);
  }
  void deallocate(int, void* pointer) noexcept override {
    if (pointer == nullptr) return;
    ++faults().deallocations;
    std::free(pointer);
  }
  void copy_to_host(int, void* d, const void* s, std::size_t n) override { copy(d, s, n); }
  void copy_from_host(int, void* d, const void* s, std::size_t n) override { copy(d, s, n); }
  void copy_between(int, void* d, int, const void* s, std::size_t n) override { copy(d, s, n); }

 private:
  static void copy(void* destination, const void* source, std::size_t bytes) {
    if (faults().fail_copies) throw device_error("faulty: copy failed on purpose");
    std::memcpy(destination, source, bytes);
  }
};

memory_space faulty_space() {
  static const space_kind kind = register_memory_manager(std::make_unique<faulty_manager>());
  return memory_space{kind, 0};
}

// Disarms the fault when a test ends, whatever happened.
struct fault_scope {
  fault_scope() { faults().fail_copies = true; }
  ~fault_scope() { faults().fail_copies = false; }
};

buffer host_ints(std::initializer_list<int> values) {
  buffer b(values.size() * sizeof(int));
  token t;
  std::memcpy(b.write_pointer(host_space, t), values.begin(), values.size() * sizeof(int));
  return b;
}

std::vector<int> host_contents(const buffer& b) {
  token t;
  const auto* p = static_cast<const int*>(b.read_pointer(host_space, t));
  return std::vector<int>(p, p + b.size_bytes() / sizeof(int));
}

}  // namespace

TEST(failures, a_failed_copy_in_leaves_the_copy_invalid_and_a_retry_works) {
  buffer b = host_ints({1, 2, 3});
  {
    fault_scope armed;
    token t;
    EXPECT_THROW(b.read_pointer(faulty_space(), t), device_error);
  }
  EXPECT_FALSE(b.is_valid(faulty_space()));
  EXPECT_TRUE(b.is_valid(host_space));
  token t;
  EXPECT_NO_THROW(b.read_pointer(faulty_space(), t));
  EXPECT_TRUE(b.is_valid(faulty_space()));
}

TEST(failures, a_failed_deep_copy_keeps_the_targets_contents) {
  buffer source = host_ints({7, 8, 9, 10});
  {
    token t;
    source.write_pointer(faulty_space(), t);  // the source is valid on the device only
  }
  buffer target = host_ints({1, 2});
  {
    fault_scope armed;
    EXPECT_THROW(target.deep_copy_from(source), device_error);
  }
  EXPECT_EQ(target.size_bytes(), 2 * sizeof(int));
  EXPECT_TRUE(target.is_valid(host_space));
  EXPECT_EQ(host_contents(target), (std::vector<int>{1, 2}));
  target.deep_copy_from(source);
  EXPECT_EQ(host_contents(target), (std::vector<int>{7, 8, 9, 10}));
}

TEST(failures, a_failed_reallocation_copy_leaks_nothing) {
  const long allocations_before = faults().allocations;
  const long deallocations_before = faults().deallocations;
  {
    buffer b = host_ints({1, 2, 3, 4});
    {
      token t;
      b.write_pointer(faulty_space(), t);
    }
    b.release_space(host_space);
    b.set_size(8 * sizeof(int), preserve::yes);  // the device copy must grow, keeping data
    for (int attempt = 0; attempt < 3; ++attempt) {
      fault_scope armed;
      token t;
      EXPECT_THROW(b.read_pointer(faulty_space(), t), device_error);
    }
    EXPECT_TRUE(b.is_valid(faulty_space()));  // the old copy is still there, still valid
    const auto grown = host_contents(b);
    EXPECT_EQ(std::vector<int>(grown.begin(), grown.begin() + 4), (std::vector<int>{1, 2, 3, 4}));
  }
  EXPECT_EQ(faults().allocations - allocations_before,
            faults().deallocations - deallocations_before);
}

TEST(failures, host_allocation_failure_names_bytes_and_space) {
  const std::size_t huge = std::numeric_limits<std::size_t>::max() / 4;
  buffer b(huge);
  token t;
  try {
    b.read_pointer(host_space, t);
    FAIL() << "allocating " << huge << " bytes succeeded";
  } catch (const allocation_error& e) {
    EXPECT_EQ(e.bytes(), huge);
    EXPECT_EQ(e.space(), host_space);
    EXPECT_NE(std::string(e.what()).find(std::to_string(huge) + " bytes"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("in host"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(b.is_allocated(host_space));
}

TEST(failures, pinned_sizes_beyond_the_address_space_are_refused) {
  buffer b(std::numeric_limits<std::size_t>::max() - 100);
  b.set_pinned_host(true);
  token t;
  EXPECT_THROW(b.write_pointer(host_space, t), allocation_error);
}

TEST(failures, strided_layouts_whose_locations_overflow_are_refused) {
  array<int> small{1, 2, 3};
  strided_array<int> wild(small.storage(), 3, stride_layout{.stride = index_t{1} << 62});
  token t;
  EXPECT_THROW(wild.read_view(host_space, t), error);
}

TEST(failures, adopting_into_an_absent_device_still_releases_the_memory_once) {
  int calls = 0;
  auto* raw = std::malloc(64);
  EXPECT_THROW(buffer::adopt(raw, 64, simulated_space(simulated_devices),
                             [&calls](void* p) {
                               ++calls;
                               std::free(p);
                             }),
               device_error);
  EXPECT_EQ(calls, 1);

  auto* values = new int[4];
  EXPECT_THROW(array<int>::adopt(values, -4, host_space,
                                 [&calls](void* p) {
                                   ++calls;
                                   delete[] static_cast<int*>(p);
                                 }),
               error);
  EXPECT_EQ(calls, 2);
}

TEST(failures, a_moved_from_array_still_shares_the_data) {
  array<double> a{1.0, 2.0};
  array<double> b = std::move(a);
  EXPECT_EQ(a.size(), 2);  // NOLINT(bugprone-use-after-move): moves share, as copies do
  a.write()[0] = 5.0;
  EXPECT_EQ(b.read()[0], 5.0);
}

TEST(failures, two_readers_that_both_upgrade_to_writers_both_succeed) {
  // Each thread reads with a token, then writes with the same token. When both wait to
  // upgrade at once, one gives way and queues as the next writer: nobody deadlocks and
  // no increment is lost.
  buffer b(sizeof(long));
  {
    token t;
    *static_cast<long*>(b.write_pointer(host_space, t)) = 0;
  }
  constexpr int rounds = 2000;
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&] {
      for (int r = 0; r < rounds; ++r) {
        token t;
        b.read_pointer(host_space, t);
        auto* p = static_cast<long*>(b.write_pointer(host_space, t));
        ++*p;
      }
    });
  for (auto& thread : threads) thread.join();
  token t;
  EXPECT_EQ(*static_cast<const long*>(b.read_pointer(host_space, t)), 4L * rounds);
}

}  // namespace funcmesh::testing
