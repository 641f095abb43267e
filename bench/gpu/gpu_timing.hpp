// Timing helpers of bench/gpu: CUDA error checks, device memory owned by a handle, medians,
// and interleaved rounds of batches timed on the host with the device synchronized at both
// ends of a batch (so a sample holds everything the calls did, launches and kernels alike).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpu_bench {

inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
  }
}

// cudaMalloc'ed bytes, freed with the handle (the memcpy baseline's buffers).
class device_bytes {
 public:
  explicit device_bytes(std::size_t bytes) : bytes_(bytes) {
    check(cudaMalloc(&pointer_, bytes), "cudaMalloc");
    // Touched once here, so that no timed copy pays for first-use page mapping.
    check(cudaMemset(pointer_, 0, bytes), "cudaMemset");
  }
  ~device_bytes() { cudaFree(pointer_); }
  device_bytes(const device_bytes&) = delete;
  device_bytes& operator=(const device_bytes&) = delete;
  void* get() const { return pointer_; }
  std::size_t size() const { return bytes_; }

 private:
  void* pointer_ = nullptr;
  std::size_t bytes_;
};

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::ranges::sort(v);
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

inline double best(const std::vector<double>& v) {
  return v.empty() ? 0 : *std::ranges::min_element(v);
}

// Seconds per call of each variant, one sample per round: a batch of `batch` calls, timed
// as a whole between two device synchronizations. Every round runs every variant once and
// starts one variant later than the round before, so that no variant always follows the
// same one (a cooling or still-busy device hits all alike).
inline std::vector<std::vector<double>> interleaved(
    int rounds, int batch, const std::vector<std::function<void()>>& variants) {
  using clock = std::chrono::steady_clock;
  std::vector<std::vector<double>> samples(variants.size());
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t turn = 0; turn < variants.size(); ++turn) {
      const std::size_t k = (turn + static_cast<std::size_t>(r)) % variants.size();
      check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
      const auto start = clock::now();
      for (int b = 0; b < batch; ++b) variants[k]();
      check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
      const double seconds = std::chrono::duration<double>(clock::now() - start).count();
      samples[k].push_back(seconds / batch);
    }
  }
  return samples;
}

}  // namespace gpu_bench
