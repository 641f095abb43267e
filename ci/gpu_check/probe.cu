// gpu_probe: the first step of ci/gpu-check run. Prints the CUDA runtime's and the driver's
// versions, every visible device, and whether one kernel ran on device 0; exit 0 only when
// a kernel ran. Built by ci/gpu-check prepare against the shared runtime the tests use.
#include <cuda_runtime.h>

#include <cstdio>

namespace {

__global__ void write_answer(int* out) { *out = 42; }

int report(const char* what, cudaError_t status) {
  std::printf("error: %s: %s: %s\n", what, cudaGetErrorName(status), cudaGetErrorString(status));
  return 1;
}

}  // namespace

int main() {
  int runtime = 0;
  int driver = 0;
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);  // 0 where no driver is installed
  std::printf("runtime %d\ndriver %d\n", runtime, driver);
  int count = 0;
  if (const cudaError_t status = cudaGetDeviceCount(&count); status != cudaSuccess) {
    return report("cudaGetDeviceCount", status);
  }
  std::printf("devices %d\n", count);
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp p{};
    if (const cudaError_t status = cudaGetDeviceProperties(&p, d); status != cudaSuccess) {
      return report("cudaGetDeviceProperties", status);
    }
    std::printf("device %d: %s, sm_%d%d, %.1f GiB, %d multiprocessors\n", d, p.name, p.major,
                p.minor, static_cast<double>(p.totalGlobalMem) / (1 << 30), p.multiProcessorCount);
  }
  if (count == 0) return 1;
  int* answer = nullptr;
  if (const cudaError_t status = cudaMalloc(&answer, sizeof(int)); status != cudaSuccess) {
    return report("cudaMalloc", status);
  }
  write_answer<<<1, 1>>>(answer);
  if (const cudaError_t status = cudaGetLastError(); status != cudaSuccess) {
    return report("kernel launch", status);
  }
  int value = 0;
  if (const cudaError_t status = cudaMemcpy(&value, answer, sizeof(int), cudaMemcpyDeviceToHost);
      status != cudaSuccess) {
    return report("cudaMemcpy", status);
  }
  cudaFree(answer);
  std::printf("kernel %s\n", value == 42 ? "ran" : "DID NOT WRITE");
  return value == 42 ? 0 : 1;
}
