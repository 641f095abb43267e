// executor: where and how a loop runs (serial, OpenMP threads, or a CUDA device and
// stream), as a small runtime value. The default comes from FUNCMESH_EXECUTOR
// (serial|openmp|cuda|cuda:<device>|auto) and can be overridden per thread in code.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <funcmesh/memory/memory_space.hpp>

namespace funcmesh {

enum class executor_kind { serial, openmp, cuda };

class executor {
 public:
  // The serial executor: the oracle every other executor is tested against.
  constexpr executor() = default;

  executor_kind kind() const { return kind_; }
  int device() const { return device_; }
  // A cudaStream_t (nullptr: the default stream); unused by the CPU executors.
  void* stream() const { return stream_; }
  // Where the loop's data must be: the host, or the executor's device.
  memory_space space() const;
  // "serial", "openmp", "cuda:0".
  std::string name() const;

  friend bool operator==(const executor&, const executor&) = default;

  static executor serial() { return {}; }
  // Throws device_error when this build has no OpenMP.
  static executor openmp();
  // Throws device_error when this build has no CUDA or the device is not visible.
  static executor cuda(int device = 0, void* stream = nullptr);

 private:
  constexpr executor(executor_kind kind, int device, void* stream)
      : kind_(kind), device_(device), stream_(stream) {}
  executor_kind kind_ = executor_kind::serial;
  int device_ = 0;
  void* stream_ = nullptr;
};

// "serial", "openmp", "cuda", "cuda:1", or "auto" (cuda when this build has CUDA and a GPU
// is visible, else openmp when built, else serial). Throws device_error naming the text
// when it names no executor or one that cannot run here.
executor parse_executor(std::string_view text);

// What "auto" picks here.
executor best_available_executor();

// The executor assignments and reductions use when none is given: this thread's override
// (scoped_executor) if any, else the process default, read once from FUNCMESH_EXECUTOR
// ("auto" when unset). A bad FUNCMESH_EXECUTOR throws at the first use, naming it.
executor default_executor();
void set_default_executor(executor chosen);

// Every executor that can run here: serial, openmp when built, each visible CUDA device.
std::vector<executor> available_executors();

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
