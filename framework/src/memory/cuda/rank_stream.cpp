// The rank's CUDA streams and the host's waits on them (memory/cuda/rank_stream.hpp).
#include <funcmesh/memory/cuda/rank_stream.hpp>

#include <array>
#include <mutex>
#include <string>

#include <funcmesh/memory/memory_error.hpp>
#include <funcmesh/profile/device_activity.hpp>

namespace funcmesh::detail {

namespace {

constexpr int max_stream_devices = 64;  // a process sees a few devices; a rank uses one

struct stream_table {
  std::mutex mutex;
  std::array<cudaStream_t, max_stream_devices> streams{};
};

stream_table& the_streams() {
  static stream_table* const instance = new stream_table;  // never destroyed, as the streams
  return *instance;
}

[[noreturn]] void stream_failure(cudaError_t status, const std::string& what) {
  static_cast<void>(cudaGetLastError());  // a failed creation must not look like a launch's
  throw device_error("funcmesh: " + what + ": " + cudaGetErrorName(status) + ": " +
                     cudaGetErrorString(status));
}

}  // namespace

cudaStream_t rank_stream(int device) {
  if (device < 0 || device >= max_stream_devices) {
    throw device_error("funcmesh: CUDA device " + std::to_string(device) +
                       " is outside the devices a process can use (0.." +
                       std::to_string(max_stream_devices - 1) + ")");
  }
  stream_table& table = the_streams();
  const std::lock_guard lock(table.mutex);
  cudaStream_t& stream = table.streams[static_cast<std::size_t>(device)];
  if (stream != nullptr) return stream;
  // Created on `device` (a stream belongs to the device current at its creation); the
  // caller's device is set back only if it was another.
  int previous = 0;
  const bool known = cudaGetDevice(&previous) == cudaSuccess;
  if (!known || previous != device) {
    if (const cudaError_t status = cudaSetDevice(device); status != cudaSuccess) {
      stream_failure(status, "cudaSetDevice(" + std::to_string(device) + ") for its stream");
    }
  }
  const cudaError_t status = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  if (known && previous != device) cudaSetDevice(previous);
  if (status != cudaSuccess) {
    stream = nullptr;
    stream_failure(status, "cudaStreamCreateWithFlags on device " + std::to_string(device));
  }
  return stream;
}

void synchronize_stream(cudaStream_t stream, const exec::loop_label& why) {
  const cudaError_t status = cudaStreamSynchronize(stream);
  if (status == cudaSuccess) return;
  const std::string last = last_launched_loop();
  throw device_error(
      "funcmesh: the device failed; reported at the synchronisation for " + why.text() +
      " (the last loop launched: " + (last.empty() ? std::string("none") : "'" + last + "'") +
      "; a fault inside a kernel surfaces at the next synchronisation after "
      "it; CUDA_LAUNCH_BLOCKING=1 reports it at its launch): " +
      cudaGetErrorName(status) + ": " + cudaGetErrorString(status));
}

}  // namespace funcmesh::detail
