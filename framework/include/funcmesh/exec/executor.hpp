// executor: where and how a loop runs (serial, OpenMP threads, or a CUDA device and
// stream), as a small runtime value. The default comes from FUNCMESH_EXECUTOR
// (serial|openmp|cuda|cuda:<device>|auto), per translation unit, and can be overridden per
// thread in code.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <funcmesh/exec/compiler.hpp>
#include <funcmesh/memory/memory_space.hpp>

namespace funcmesh {

enum class executor_kind { serial, openmp, cuda };

class executor {
 public:
  // The serial executor: the oracle every other executor is tested against.
  constexpr executor() = default;

  executor_kind kind() const { return kind_; }
  int device() const { return device_; }
  // A cudaStream_t (nullptr: the rank's stream of the device, which every launch and copy
  // of the memory layer uses); unused by the CPU executors.
  void* stream() const { return stream_; }
  // Where the loop's data must be: the host, or the executor's device.
  memory_space space() const;
  // Whether its loops run on a device (CUDA, or the simulated device): its launches,
  // synchronisations and copies are counted (device_activity.hpp).
  constexpr bool on_device() const { return kind_ == executor_kind::cuda || simulated_; }
  // "serial", "openmp", "cuda:0".
  std::string name() const;

  friend bool operator==(const executor&, const executor&) = default;

  static executor serial() { return {}; }
  // Throws device_error when this build has no OpenMP.
  static executor openmp();
  // The GPU this process is bound to (rank_device()).
  static constexpr int bound_gpu = -1;
  // Throws device_error when this build has no CUDA or the device is not visible.
  static executor cuda(int device = bound_gpu, void* stream = nullptr);
  // Serial loops on the host whose data lives on a simulated device (host memory behind
  // the device interface, memory/simulated_device.hpp): data movement as on a GPU, tested
  // on machines without one. Named "serial@sim:<device>".
  static executor simulated_device(int device = 0);

 private:
  constexpr executor(executor_kind kind, int device, void* stream, bool simulated = false)
      : kind_(kind), device_(device), stream_(stream), simulated_(simulated) {}
  executor_kind kind_ = executor_kind::serial;
  int device_ = 0;
  void* stream_ = nullptr;
  bool simulated_ = false;
};

// CUDA devices visible to this process (0 in a build without CUDA), and why there are none
// ("" when there are): the driver's reason, or that this funcmesh is built without CUDA.
int visible_gpu_count();
std::string gpu_absence_reason();

// The GPU this process uses: what "cuda" and executor::cuda() mean. 0 until
// bind_rank_device() is called; the MPI environment calls it at start-up with the local
// rank modulo the visible GPUs, or FUNCMESH_GPU (comm/gpu_binding.hpp).
int rank_device();
// Makes `device` this process's GPU and current on the calling thread, once: device guards
// then find it current and switch nothing. Throws device_error when it is not visible.
void bind_rank_device(int device);

// FUNCMESH_REQUIRE_GPU=1: "no GPU" is an error, never a silent fall back to the CPU (auto
// and the GPU tests fail instead). Any other value than 0, 1 or unset throws device_error.
bool gpu_required();

namespace detail {
executor parse_executor_for(std::string_view text, bool launches_kernels);
executor best_available_executor_for(bool launches_kernels);
executor default_executor_for(bool launches_kernels);
std::vector<executor> available_executors_for(bool launches_kernels);
}  // namespace detail

// Executors are chosen per translation unit: only code compiled by nvcc can launch a
// kernel, so for host-compiled code (Compiler = host_compiler) "auto" and the process
// default never mean a GPU. Each template below takes the caller's compiler by default.

// "serial", "openmp", "cuda" (the rank's GPU), "cuda:1", or "auto" (the rank's GPU when this
// build has CUDA, the calling code is nvcc-compiled and a GPU is visible, else openmp when
// built, else serial). Throws device_error naming the text when it names no executor or
// one that cannot run here.
template <class Compiler = exec::this_compiler>
executor parse_executor(std::string_view text) {
  return detail::parse_executor_for(text, exec::launches_kernels<Compiler>);
}

// What "auto" picks for the calling code.
template <class Compiler = exec::this_compiler>
executor best_available_executor() {
  return detail::best_available_executor_for(exec::launches_kernels<Compiler>);
}

// The executor assignments and reductions use when none is given: this thread's override
// (scoped_executor) if any, else the process default, read once from FUNCMESH_EXECUTOR
// ("auto" when unset) or set by set_default_executor. A process default of cuda, asked
// for by host-compiled code, gives that code the best host executor instead, and says so
// once on stderr. A bad FUNCMESH_EXECUTOR throws at the first use, naming it.
template <class Compiler = exec::this_compiler>
executor default_executor() {
  return detail::default_executor_for(exec::launches_kernels<Compiler>);
}

// An explicit process default, or one given as text ("auto" stays automatic: each
// translation unit then gets its best executor).
void set_default_executor(executor chosen);
void set_default_executor(std::string_view text);

// Every executor the calling code can run here: serial, openmp when built, and, for
// nvcc-compiled code, each visible CUDA device.
template <class Compiler = exec::this_compiler>
std::vector<executor> available_executors() {
  return detail::available_executors_for(exec::launches_kernels<Compiler>);
}

// One-line notes on stderr (the host-compiled fall back, once per process). On by
// default; the MPI environment leaves them to rank 0.
void set_executor_notes(bool enabled);

// Sets this thread's executor for its lifetime (nestable).
class scoped_executor {
 public:
  explicit scoped_executor(executor chosen);
  ~scoped_executor();
  scoped_executor(const scoped_executor&) = delete;
  scoped_executor& operator=(const scoped_executor&) = delete;

 private:
  bool had_previous_;
  executor previous_;
};

}  // namespace funcmesh
