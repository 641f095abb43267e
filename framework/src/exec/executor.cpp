#include <funcmesh/exec/executor.hpp>

#include <charconv>
#include <cstdlib>
#include <mutex>
#include <optional>

#include <funcmesh/config.hpp>
#include <funcmesh/memory/memory_error.hpp>
#include <funcmesh/memory/memory_manager.hpp>

namespace funcmesh {

namespace {

int visible_cuda_devices() {
  if constexpr (!config::cuda) {
    return 0;
  } else {
    return memory_manager_for(space_kind::cuda).device_count();
  }
}

std::mutex default_mutex;
std::optional<executor> process_default;
thread_local std::optional<executor> thread_override;

}  // namespace

memory_space executor::space() const {
  return kind_ == executor_kind::cuda ? cuda_space(device_) : host_space;
}

std::string executor::name() const {
  switch (kind_) {
    case executor_kind::serial:
      return "serial";
    case executor_kind::openmp:
      return "openmp";
    case executor_kind::cuda:
      return "cuda:" + std::to_string(device_);
  }
  return "unknown";
}

executor executor::openmp() {
  if constexpr (!config::openmp) {
    throw device_error(
        "funcmesh: the openmp executor is not built into this funcmesh "
        "(configure with FUNCMESH_ENABLE_OPENMP=ON)");
  }
  return executor(executor_kind::openmp, 0, nullptr);
}

executor executor::cuda(int device, void* stream) {
  if constexpr (!config::cuda) {
    throw device_error(
        "funcmesh: the cuda executor is not built into this funcmesh "
        "(configure with the cuda preset or FUNCMESH_ENABLE_CUDA=ON)");
  }
  // Names the space and, when no GPU is visible, the driver's reason.
  require_space(cuda_space(device));
  return executor(executor_kind::cuda, device, stream);
}

executor best_available_executor() {
  if (config::cuda && visible_cuda_devices() > 0) return executor::cuda(0);
  if (config::openmp) return executor::openmp();
  return executor::serial();
}

executor parse_executor(std::string_view text) {
  if (text == "serial") return executor::serial();
  if (text == "openmp") return executor::openmp();
  if (text == "auto" || text.empty()) return best_available_executor();
  if (text == "cuda") return executor::cuda(0);
  if (text.starts_with("cuda:")) {
    std::string_view digits = text.substr(5);
    int device = -1;
    auto [end, status] = std::from_chars(digits.data(), digits.data() + digits.size(), device);
    if (status == std::errc() && end == digits.data() + digits.size() && device >= 0) {
      return executor::cuda(device);
    }
  }
  throw device_error("funcmesh: '" + std::string(text) +
                     "' is not an executor (expected serial, openmp, cuda, cuda:<device> or "
                     "auto)");
}

executor default_executor() {
  if (thread_override) return *thread_override;
  std::lock_guard lock(default_mutex);
  if (!process_default) {
    const char* text = std::getenv("FUNCMESH_EXECUTOR");
    try {
      process_default = parse_executor(text ? text : "auto");
    } catch (const device_error& failure) {
      throw device_error(std::string("FUNCMESH_EXECUTOR: ") + failure.what());
    }
  }
  return *process_default;
}

void set_default_executor(executor chosen) {
  std::lock_guard lock(default_mutex);
  process_default = chosen;
}

std::vector<executor> available_executors() {
  std::vector<executor> result{executor::serial()};
  if (config::openmp) result.push_back(executor::openmp());
  for (int device = 0; device < visible_cuda_devices(); ++device) {
    result.push_back(executor::cuda(device));
  }
  return result;
}

scoped_executor::scoped_executor(executor chosen)
    : had_previous_(thread_override.has_value()), previous_(thread_override.value_or(executor{})) {
  thread_override = chosen;
}

scoped_executor::~scoped_executor() {
  if (had_previous_) {
    thread_override = previous_;
  } else {
    thread_override.reset();
  }
}

}  // namespace funcmesh
