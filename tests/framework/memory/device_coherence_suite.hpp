// Coherence between the host and a device, written once and instantiated for every
// device kind that is built: the simulated device (every build) and CUDA (.cu file).
// Traits: space(d), device_count(), increment(space, p, n) and download(space, p, n)
// touch device data without a buffer; counts_copies says whether copies are counted.
#pragma once

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include <funcmesh/memory/memory.hpp>
#include <funcmesh/memory/memory_error.hpp>

namespace funcmesh::testing {

template <class Traits>
class device_coherence : public ::testing::Test {
 protected:
  void SetUp() override {
    if (Traits::device_count() == 0) GTEST_SKIP() << "no " << Traits::name() << " device visible";
  }
  static memory_space device(int d = 0) { return Traits::space(d); }

  // A host array 0, 1, ..., n-1 in a buffer.
  static buffer iota_buffer(int n) {
    buffer b(n * sizeof(int));
    token t;
    auto* p = static_cast<int*>(b.write_pointer(host_space, t));
    std::iota(p, p + n, 0);
    return b;
  }
  static std::vector<int> iota(int n, int first = 0) {
    std::vector<int> v(n);
    std::iota(v.begin(), v.end(), first);
    return v;
  }
  static std::vector<int> host_values(const buffer& b) {
    token t;
    const auto* p = static_cast<const int*>(b.read_pointer(host_space, t));
    return std::vector<int>(p, p + b.size_bytes() / sizeof(int));
  }
};

TYPED_TEST_SUITE_P(device_coherence);

TYPED_TEST_P(device_coherence, allocates_nowhere_until_a_pointer_is_requested) {
  buffer b(1000 * sizeof(int));
  EXPECT_FALSE(b.is_allocated(host_space));
  EXPECT_FALSE(b.is_allocated(this->device()));
  token t;
  b.read_pointer(this->device(), t);
  EXPECT_TRUE(b.is_allocated(this->device()));
  EXPECT_FALSE(b.is_allocated(host_space));
}

TYPED_TEST_P(device_coherence, a_read_copies_in_and_leaves_other_copies_valid) {
  buffer b = this->iota_buffer(1000);
  token t;
  const auto* p = static_cast<const int*>(b.read_pointer(this->device(), t));
  EXPECT_EQ(TypeParam::download(this->device(), p, 1000), this->iota(1000));
  EXPECT_TRUE(b.is_valid(host_space));
  EXPECT_TRUE(b.is_valid(this->device()));
}

TYPED_TEST_P(device_coherence, a_device_write_invalidates_the_host_and_a_host_read_copies_back) {
  buffer b = this->iota_buffer(1000);
  {
    token t;
    auto* p = static_cast<int*>(b.write_pointer(this->device(), t));
    EXPECT_FALSE(b.is_valid(host_space));
    EXPECT_TRUE(b.is_allocated(host_space));  // kept for reuse
    TypeParam::increment(this->device(), p, 1000);
  }
  EXPECT_EQ(this->host_values(b), this->iota(1000, 1));
  EXPECT_TRUE(b.is_valid(host_space));
  EXPECT_TRUE(b.is_valid(this->device()));
}

TYPED_TEST_P(device_coherence, a_host_write_invalidates_the_device_and_the_device_sees_it) {
  buffer b = this->iota_buffer(100);
  {
    token t;
    b.read_pointer(this->device(), t);
  }
  {
    token t;
    auto* p = static_cast<int*>(b.write_pointer(host_space, t));
    EXPECT_FALSE(b.is_valid(this->device()));
    p[7] = -7;
  }
  token t;
  const auto* d = static_cast<const int*>(b.read_pointer(this->device(), t));
  EXPECT_EQ(TypeParam::download(this->device(), d, 100)[7], -7);
}

TYPED_TEST_P(device_coherence, overwrite_does_not_copy_the_old_contents_in) {
  buffer b = this->iota_buffer(100);
  reset_simulated_counts();
  {
    token t;
    b.overwrite_pointer(this->device(), t);
  }
  EXPECT_TRUE(b.is_valid(this->device()));
  EXPECT_FALSE(b.is_valid(host_space));
  if (TypeParam::counts_copies) {
    EXPECT_EQ(simulated_counts().from_host, 0);
  }
}

TYPED_TEST_P(device_coherence, resize_with_preserve_keeps_the_prefix_across_spaces) {
  buffer b = this->iota_buffer(100);
  {
    token t;
    TypeParam::increment(this->device(), static_cast<int*>(b.write_pointer(this->device(), t)),
                         100);
  }
  b.set_size(300 * sizeof(int), preserve::yes);  // lazy: the device copy is still old-sized
  EXPECT_EQ(b.status(this->device()).allocated_bytes, 100 * sizeof(int));
  std::vector<int> grown = this->host_values(b);
  ASSERT_EQ(grown.size(), 300u);
  EXPECT_EQ(std::vector<int>(grown.begin(), grown.begin() + 100), this->iota(100, 1));

  b.set_size(40 * sizeof(int), preserve::yes);
  token t;
  const auto* d = static_cast<const int*>(b.read_pointer(this->device(), t));
  EXPECT_EQ(TypeParam::download(this->device(), d, 40), this->iota(40, 1));
  EXPECT_EQ(b.status(this->device()).allocated_bytes, 40 * sizeof(int));
}

TYPED_TEST_P(device_coherence, resize_without_preserve_drops_every_copy) {
  buffer b = this->iota_buffer(100);
  {
    token t;
    b.read_pointer(this->device(), t);
  }
  b.set_size(200 * sizeof(int), preserve::no);
  EXPECT_FALSE(b.is_allocated(host_space));
  EXPECT_FALSE(b.is_allocated(this->device()));
  EXPECT_EQ(b.size_bytes(), 200 * sizeof(int));
}

// Device data is copied device to device, never through the host: on one device (a deep
// copy of a buffer whose only copy is there: every machine with a device runs this form)
// and, where there are two devices, between them.
TYPED_TEST_P(device_coherence, device_to_device_copies_go_direct) {
  buffer b = this->iota_buffer(256);
  {
    token t;
    b.read_pointer(this->device(0), t);
  }
  b.release_space(host_space);  // device 0 now holds the only copy
  reset_simulated_counts();
  {
    buffer same_device;
    same_device.deep_copy_from(b);
    token t;
    const auto* p = static_cast<const int*>(same_device.read_pointer(this->device(0), t));
    EXPECT_EQ(TypeParam::download(this->device(0), p, 256), this->iota(256));
    EXPECT_FALSE(same_device.is_allocated(host_space));
    EXPECT_FALSE(b.is_allocated(host_space));
    if (TypeParam::counts_copies) {
      EXPECT_EQ(simulated_counts().between, 1);
      EXPECT_EQ(simulated_counts().to_host, 0);
      EXPECT_EQ(simulated_counts().from_host, 0);
    }
  }
  if (TypeParam::device_count() < 2) return;  // no second device for the form between two
  reset_simulated_counts();
  token t;
  const auto* p1 = static_cast<const int*>(b.read_pointer(this->device(1), t));
  EXPECT_EQ(TypeParam::download(this->device(1), p1, 256), this->iota(256));
  EXPECT_FALSE(b.is_allocated(host_space));
  if (TypeParam::counts_copies) {
    EXPECT_EQ(simulated_counts().between, 1);
    EXPECT_EQ(simulated_counts().to_host, 0);
    EXPECT_EQ(simulated_counts().from_host, 0);
  }
}

TYPED_TEST_P(device_coherence, releasing_the_only_valid_device_copy_moves_it_to_the_host) {
  buffer b = this->iota_buffer(50);
  {
    token t;
    TypeParam::increment(this->device(), static_cast<int*>(b.write_pointer(this->device(), t)), 50);
  }
  b.release_space(this->device());
  EXPECT_FALSE(b.is_allocated(this->device()));
  EXPECT_TRUE(b.is_valid(host_space));
  EXPECT_EQ(this->host_values(b), this->iota(50, 1));
}

TYPED_TEST_P(device_coherence, adopted_device_memory_is_released_exactly_once) {
  int calls = 0;
  const memory_space space = this->device();
  {
    void* raw = TypeParam::raw_allocate(space, 64 * sizeof(int));
    buffer b = buffer::adopt(raw, 64 * sizeof(int), space, [&calls, space](void* p) {
      ++calls;
      TypeParam::raw_free(space, p);
    });
    EXPECT_TRUE(b.is_valid(space));
    buffer copy = b;
    {
      token t;
      EXPECT_EQ(b.read_pointer(space, t), raw);
      b.read_pointer(host_space, t);
    }
    EXPECT_EQ(calls, 0);
    b.set_size(128 * sizeof(int), preserve::yes);
    token t;
    copy.read_pointer(space, t);  // reallocated: the adopted memory is let go
    EXPECT_EQ(calls, 1);
  }
  EXPECT_EQ(calls, 1);
}

TYPED_TEST_P(device_coherence, deep_copy_of_device_data_is_made_on_the_device) {
  buffer source = this->iota_buffer(500);
  {
    token t;
    TypeParam::increment(this->device(), static_cast<int*>(source.write_pointer(this->device(), t)),
                         500);
  }
  buffer copy;
  copy.deep_copy_from(source);
  EXPECT_TRUE(copy.is_valid(this->device()));
  EXPECT_FALSE(copy.is_allocated(host_space));
  EXPECT_FALSE(copy.shares_with(source));
  EXPECT_EQ(this->host_values(copy), this->iota(500, 1));
}

TYPED_TEST_P(device_coherence, a_failed_allocation_names_the_bytes_and_the_space) {
  buffer b(std::size_t{1} << 60);
  token t;
  try {
    b.read_pointer(this->device(), t);
    FAIL() << "allocating 2^60 bytes succeeded";
  } catch (const allocation_error& e) {
    EXPECT_EQ(e.bytes(), std::size_t{1} << 60);
    EXPECT_EQ(e.space(), this->device());
    EXPECT_NE(std::string(e.what()).find(to_string(this->device())), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("1152921504606846976 bytes"), std::string::npos)
        << e.what();
  }
}

TYPED_TEST_P(device_coherence, an_absent_device_is_a_clear_error) {
  const memory_space absent = this->device(TypeParam::device_count());
  buffer b(16);
  token t;
  try {
    b.read_pointer(absent, t);
    FAIL() << "reading on an absent device succeeded";
  } catch (const device_error& e) {
    EXPECT_NE(std::string(e.what()).find(to_string(absent)), std::string::npos) << e.what();
  }
}

REGISTER_TYPED_TEST_SUITE_P(
    device_coherence, allocates_nowhere_until_a_pointer_is_requested,
    a_read_copies_in_and_leaves_other_copies_valid,
    a_device_write_invalidates_the_host_and_a_host_read_copies_back,
    a_host_write_invalidates_the_device_and_the_device_sees_it,
    overwrite_does_not_copy_the_old_contents_in,
    resize_with_preserve_keeps_the_prefix_across_spaces, resize_without_preserve_drops_every_copy,
    device_to_device_copies_go_direct, releasing_the_only_valid_device_copy_moves_it_to_the_host,
    adopted_device_memory_is_released_exactly_once, deep_copy_of_device_data_is_made_on_the_device,
    a_failed_allocation_names_the_bytes_and_the_space, an_absent_device_is_a_clear_error);

}  // namespace funcmesh::testing
