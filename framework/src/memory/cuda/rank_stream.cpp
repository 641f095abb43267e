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
  std::array<cudaStream_t, max_stream_devices> side_streams{};
  std::array<cudaEvent_t, max_stream_devices> fork_events{};  // recorded on the forked stream
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

void check_device_index(int device) {
  if (device < 0 || device >= max_stream_devices) {
    throw device_error("funcmesh: CUDA device " + std::to_string(device) +
                       " is outside the devices a process can use (0.." +
                       std::to_string(max_stream_devices - 1) + ")");
  }
}

// Runs make() with `device` current (a stream or event belongs to the device current at
// its creation); the caller's device is set back only if it was another.
template <class Make>
void create_on(int device, const Make& make) {
  int previous = 0;
  const bool known = cudaGetDevice(&previous) == cudaSuccess;
  if (!known || previous != device) {
    if (const cudaError_t status = cudaSetDevice(device); status != cudaSuccess) {
      stream_failure(status, "cudaSetDevice(" + std::to_string(device) + ") for its stream");
    }
  }
  const cudaError_t status = make();
  if (known && previous != device) cudaSetDevice(previous);
  if (status != cudaSuccess) {
    stream_failure(status, "creating a stream or event on CUDA device " + std::to_string(device));
  }
}

// The stream of `streams` for `device`, created (non-blocking) at first use. Call with the
// table locked.
cudaStream_t stream_in(std::array<cudaStream_t, max_stream_devices>& streams, int device) {
  cudaStream_t& stream = streams[static_cast<std::size_t>(device)];
  if (stream == nullptr) {
    create_on(device, [&] {
      const cudaError_t status = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
      if (status != cudaSuccess) stream = nullptr;
      return status;
    });
  }
  return stream;
}

}  // namespace

cudaStream_t rank_stream(int device) {
  check_device_index(device);
  stream_table& table = the_streams();
  const std::lock_guard lock(table.mutex);
  return stream_in(table.streams, device);
}

cudaStream_t fork_side_stream(int device, cudaStream_t after) {
  check_device_index(device);
  stream_table& table = the_streams();
  const std::lock_guard lock(table.mutex);
  const cudaStream_t main = after != nullptr ? after : stream_in(table.streams, device);
  const cudaStream_t side = stream_in(table.side_streams, device);
  cudaEvent_t& fork = table.fork_events[static_cast<std::size_t>(device)];
  if (fork == nullptr) {
    create_on(device, [&] {
      const cudaError_t status = cudaEventCreateWithFlags(&fork, cudaEventDisableTiming);
      if (status != cudaSuccess) fork = nullptr;
      return status;
    });
  }
  // The side stream waits for the work issued on `main` so far (the event is
  // captured at this record: reusing it for the next fork does not disturb this wait).
  if (const cudaError_t status = cudaEventRecord(fork, main); status != cudaSuccess) {
    stream_failure(status, "cudaEventRecord on the halo round's stream");
  }
  if (const cudaError_t status = cudaStreamWaitEvent(side, fork, 0); status != cudaSuccess) {
    stream_failure(status, "cudaStreamWaitEvent on the side stream");
  }
  return side;
}

cudaStream_t existing_side_stream(int device) noexcept {
  if (device < 0 || device >= max_stream_devices) return nullptr;
  stream_table& table = the_streams();
  const std::lock_guard lock(table.mutex);
  return table.side_streams[static_cast<std::size_t>(device)];
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
