// The buffer on the host alone, and the shared coherence suite on the simulated device.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include <funcmesh/config.hpp>
#include <funcmesh/memory/memory.hpp>
#include <funcmesh/memory/memory_error.hpp>

#include "device_coherence_suite.hpp"
#include "simulated_traits.hpp"

namespace funcmesh::testing {

INSTANTIATE_TYPED_TEST_SUITE_P(simulated, device_coherence, simulated_traits);

TEST(buffer, set_size_is_lazy) {
  buffer b;
  b.set_size(1 << 20);
  EXPECT_EQ(b.size_bytes(), 1u << 20);
  EXPECT_FALSE(b.is_allocated(host_space));
  EXPECT_TRUE(b.statuses().empty());
  token t;
  EXPECT_NE(b.write_pointer(host_space, t), nullptr);
  EXPECT_TRUE(b.is_allocated(host_space));
  EXPECT_TRUE(b.is_valid(host_space));
  EXPECT_EQ(b.status(host_space).allocated_bytes, 1u << 20);
}

TEST(buffer, copies_share_the_data) {
  buffer a(4 * sizeof(int));
  buffer b = a;
  EXPECT_TRUE(a.shares_with(b));
  {
    token t;
    static_cast<int*>(a.write_pointer(host_space, t))[2] = 42;
  }
  token t;
  EXPECT_EQ(static_cast<const int*>(b.read_pointer(host_space, t))[2], 42);
  b.set_size(8 * sizeof(int), preserve::yes, t);
  EXPECT_EQ(a.size_bytes(), 8 * sizeof(int));
}

TEST(buffer, host_pointers_are_cache_line_aligned) {
  buffer b(100);
  token t;
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.read_pointer(host_space, t)) % 64, 0u);
}

TEST(buffer, an_empty_buffer_hands_out_null_and_counts_as_valid) {
  buffer b;
  token t;
  EXPECT_EQ(b.read_pointer(host_space, t), nullptr);
  EXPECT_TRUE(b.is_valid(host_space));
}

TEST(buffer, preserve_on_the_host_keeps_the_prefix) {
  buffer b(10 * sizeof(int));
  {
    token t;
    auto* p = static_cast<int*>(b.write_pointer(host_space, t));
    for (int i = 0; i < 10; ++i) p[i] = i * i;
  }
  b.set_size(1000 * sizeof(int), preserve::yes);
  EXPECT_EQ(b.status(host_space).allocated_bytes, 10 * sizeof(int));  // not yet reallocated
  token t;
  const auto* p = static_cast<const int*>(b.read_pointer(host_space, t));
  for (int i = 0; i < 10; ++i) EXPECT_EQ(p[i], i * i);
  EXPECT_EQ(b.status(host_space).allocated_bytes, 1000 * sizeof(int));
}

TEST(buffer, adopted_host_memory_is_released_exactly_once) {
  int calls = 0;
  {
    auto* raw = static_cast<int*>(std::malloc(16 * sizeof(int)));
    buffer b = buffer::adopt(raw, 16 * sizeof(int), host_space, [&calls](void* p) {
      ++calls;
      std::free(p);
    });
    buffer c = b;
    buffer d = c;
    token t;
    EXPECT_EQ(b.read_pointer(host_space, t), raw);
  }
  EXPECT_EQ(calls, 1);

  calls = 0;
  {
    auto* raw = static_cast<int*>(std::malloc(16 * sizeof(int)));
    buffer b = buffer::adopt(raw, 16 * sizeof(int), host_space, [&calls](void* p) {
      ++calls;
      std::free(p);
    });
    b.set_size(0, preserve::no);  // dropping the contents lets the memory go at once
    EXPECT_EQ(calls, 1);
  }
  EXPECT_EQ(calls, 1);
}

TEST(buffer, adopting_null_memory_of_nonzero_size_is_refused) {
  EXPECT_THROW(buffer::adopt(nullptr, 8, host_space, nullptr), error);
}

TEST(buffer, pinned_host_memory_is_page_locked_and_keeps_contents) {
  buffer b(64 * 1024);
  {
    token t;
    std::memset(b.write_pointer(host_space, t), 7, 64 * 1024);
  }
  EXPECT_FALSE(b.status(host_space).pinned);
  b.set_pinned_host(true);
  token t;
  const auto* p = static_cast<const unsigned char*>(b.read_pointer(host_space, t));
  EXPECT_TRUE(b.status(host_space).pinned);
  EXPECT_EQ(p[0], 7);
  EXPECT_EQ(p[64 * 1024 - 1], 7);
}

TEST(buffer, releasing_the_only_valid_host_copy_is_refused) {
  buffer b(16);
  {
    token t;
    b.write_pointer(host_space, t);
  }
  EXPECT_THROW(b.release_space(host_space), error);
  EXPECT_TRUE(b.is_valid(host_space));
}

TEST(buffer, deep_copy_is_independent) {
  buffer a(3 * sizeof(double));
  {
    token t;
    auto* p = static_cast<double*>(a.write_pointer(host_space, t));
    p[0] = 1.5, p[1] = 2.5, p[2] = 3.5;
  }
  buffer b;
  b.deep_copy_from(a);
  {
    token t;
    static_cast<double*>(a.write_pointer(host_space, t))[1] = -1;
  }
  token t;
  EXPECT_EQ(static_cast<const double*>(b.read_pointer(host_space, t))[1], 2.5);
  EXPECT_EQ(b.size_bytes(), a.size_bytes());
}

TEST(buffer, cuda_space_without_cuda_or_device_is_a_clear_error) {
  const bool cuda_usable = config::cuda && memory_manager_for(space_kind::cuda).device_count() > 0;
  if (cuda_usable) GTEST_SKIP() << "a CUDA device is visible";
  buffer b(8);
  token t;
  try {
    b.read_pointer(cuda_space(0), t);
    FAIL() << "cuda:0 without a device succeeded";
  } catch (const device_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("cuda"), std::string::npos) << message;
    EXPECT_NE(message.find(config::cuda ? "no cuda device is visible" : "not built into"),
              std::string::npos)
        << message;
  }
}

}  // namespace funcmesh::testing
