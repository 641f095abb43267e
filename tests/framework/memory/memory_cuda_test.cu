// The shared coherence suite on CUDA devices: the same tests as on the simulated
// device, with device data touched by kernels and raw cudaMemcpy (not the buffer).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>

#include <funcmesh/exec/executor.hpp>
#include <funcmesh/memory/memory.hpp>

#include "device_coherence_suite.hpp"

namespace funcmesh::testing {

namespace {

__global__ void increment_kernel(int* data, index_t size) {
  const index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  if (i < size) ++data[i];
}

__global__ void view_kernel(view<const int> in, view<int> out) {
  const index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  if (i < in.size()) out[i] = 2 * in[i];
}

void check(cudaError_t status, const char* what) {
  ASSERT_EQ(status, cudaSuccess) << what << ": " << cudaGetErrorString(status);
}

int blocks_for(index_t size) { return static_cast<int>((size + 255) / 256); }

}  // namespace

struct cuda_traits {
  static constexpr bool counts_copies = false;
  static const char* name() { return "CUDA"; }
  static int device_count() { return memory_manager_for(space_kind::cuda).device_count(); }
  static memory_space space(int device = 0) { return cuda_space(device); }
  static void increment(memory_space s, int* data, index_t size) {
    if (size == 0) return;
    cudaSetDevice(s.device);
    increment_kernel<<<blocks_for(size), 256>>>(data, size);
    check(cudaDeviceSynchronize(), "increment_kernel");
  }
  static std::vector<int> download(memory_space s, const int* data, index_t size) {
    std::vector<int> values(static_cast<std::size_t>(size));
    cudaSetDevice(s.device);
    check(cudaMemcpy(values.data(), data, sizeof(int) * values.size(), cudaMemcpyDeviceToHost),
          "cudaMemcpy");
    return values;
  }
  static void* raw_allocate(memory_space s, std::size_t bytes) {
    void* p = nullptr;
    cudaSetDevice(s.device);
    check(cudaMalloc(&p, bytes), "cudaMalloc");
    return p;
  }
  static void raw_free(memory_space s, void* p) {
    cudaSetDevice(s.device);
    cudaFree(p);
  }
};

INSTANTIATE_TYPED_TEST_SUITE_P(cuda, device_coherence, cuda_traits);

// The suite skips every case without a device; under FUNCMESH_REQUIRE_GPU=1 (set where the
// CUDA tests run) finding none fails here.
TEST(cuda_device, is_visible_where_required) {
  if (cuda_traits::device_count() > 0) return;
  const std::string reason = memory_manager_for(space_kind::cuda).absence_reason();
  if (gpu_required()) FAIL() << "FUNCMESH_REQUIRE_GPU=1 but no GPU: " << reason;
  GTEST_SKIP() << "no GPU is visible (" << reason << ")";
}

TEST(cuda_views, a_kernel_reads_and_writes_through_views) {
  if (cuda_traits::device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  array<int> in(1000);
  {
    auto w = in.overwrite();
    for (index_t i = 0; i < 1000; ++i) w[i] = static_cast<int>(i);
  }
  array<int> out(1000);
  {
    token t;
    auto r = in.read_view(cuda_space(0), t);
    auto w = out.overwrite_view(cuda_space(0), t);
    view_kernel<<<blocks_for(1000), 256>>>(r, w);
    check(cudaDeviceSynchronize(), "view_kernel");
  }
  const auto values = out.to_vector();
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(values[static_cast<std::size_t>(i)], 2 * i);
}

}  // namespace funcmesh::testing
