#include <funcmesh/exec/executor.hpp>

#include <atomic>
#include <charconv>
#include <cstdio>
#include <mutex>
#include <optional>

#include <funcmesh/config.hpp>
#include <funcmesh/core/error.hpp>
#include <funcmesh/core/settings.hpp>
#include <funcmesh/memory/memory_error.hpp>
#include <funcmesh/memory/memory_manager.hpp>
#include <funcmesh/memory/simulated_device.hpp>

namespace funcmesh {

namespace {

// The process default: automatic (each translation unit gets its best executor), or one
// chosen executor.
struct process_choice {
  bool automatic = true;
  executor chosen;
  // What it resolves to for host-compiled [0] and nvcc-compiled [1] code, once known.
  std::optional<executor> resolved[2];
};

std::mutex default_mutex;
std::optional<process_choice> process_default;
thread_local std::optional<executor> thread_override;
std::atomic<int> bound_device{0};
std::atomic<bool> notes_enabled{true};
std::once_flag host_fallback_noted;

process_choice choice_from_text(std::string_view text, bool launches_kernels) {
  if (text.empty() || text == "auto") {
    (void)detail::best_available_executor_for(launches_kernels);  // FUNCMESH_REQUIRE_GPU checks
    return {};
  }
  process_choice choice;
  choice.automatic = false;
  choice.chosen = detail::parse_executor_for(text, launches_kernels);
  return choice;
}

executor best_host_executor() { return config::openmp ? executor::openmp() : executor::serial(); }

// Host-compiled code asked for the process default while that is a GPU.
executor host_fallback(const executor& gpu) {
  const executor host = best_host_executor();
  if (notes_enabled.load()) {
    std::call_once(host_fallback_noted, [&] {
      std::fprintf(stderr,
                   "funcmesh: loops compiled by nvcc run on %s; loops compiled by the host "
                   "compiler run on %s (compile a file as CUDA to move its loops to the GPU)\n",
                   gpu.name().c_str(), host.name().c_str());
      std::fflush(stderr);
    });
  }
  return host;
}

}  // namespace

memory_space executor::space() const {
  if (simulated_) return simulated_space(device_);
  return kind_ == executor_kind::cuda ? cuda_space(device_) : host_space;
}

std::string executor::name() const {
  switch (kind_) {
    case executor_kind::serial:
      return simulated_ ? "serial@sim:" + std::to_string(device_) : "serial";
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
  if (device == bound_gpu) device = rank_device();
  // Names the space and, when no GPU is visible, the driver's reason.
  require_space(cuda_space(device));
  return executor(executor_kind::cuda, device, stream);
}

executor executor::simulated_device(int device) {
  require_space(simulated_space(device));
  return executor(executor_kind::serial, device, nullptr, true);
}

int visible_gpu_count() {
  if constexpr (!config::cuda) {
    return 0;
  } else {
    return memory_manager_for(space_kind::cuda).device_count();
  }
}

std::string gpu_absence_reason() {
  if constexpr (!config::cuda) {
    return "this funcmesh is built without CUDA";
  } else {
    return memory_manager_for(space_kind::cuda).absence_reason();
  }
}

int rank_device() { return bound_device.load(); }

void bind_rank_device(int device) {
  require_space(cuda_space(device));
  memory_manager_for(space_kind::cuda).select_device(device);
  bound_device.store(device);
  std::lock_guard lock(default_mutex);
  if (process_default) process_default->resolved[0] = process_default->resolved[1] = std::nullopt;
}

bool gpu_required() { return settings::get().require_gpu.value(); }

namespace detail {

executor best_available_executor_for(bool launches_kernels) {
  const int gpus = visible_gpu_count();
  if (gpus == 0 && gpu_required()) {
    throw device_error(
        "funcmesh::default_executor: FUNCMESH_REQUIRE_GPU=1 but no GPU is visible: " +
        gpu_absence_reason());
  }
  if (config::cuda && launches_kernels && gpus > 0) return executor::cuda();
  return best_host_executor();
}

executor parse_executor_for(std::string_view text, bool launches_kernels) {
  if (text == "serial") return executor::serial();
  if (text == "openmp") return executor::openmp();
  if (text == "auto" || text.empty()) return best_available_executor_for(launches_kernels);
  if (text == "cuda") return executor::cuda();
  if (text.starts_with("cuda:")) {
    std::string_view digits = text.substr(5);
    int device = -1;
    auto [end, status] = std::from_chars(digits.data(), digits.data() + digits.size(), device);
    if (status == std::errc() && end == digits.data() + digits.size() && device >= 0) {
      return executor::cuda(device);
    }
  }
  throw device_error("funcmesh::parse_executor: '" + std::string(text) +
                     "' is not an executor (expected serial, openmp, cuda, cuda:<device> or "
                     "auto)");
}

executor default_executor_for(bool launches_kernels) {
  if (thread_override) return *thread_override;
  std::lock_guard lock(default_mutex);
  if (!process_default) {
    const std::string& text = settings::get().executor.value();  // its own error names it
    try {
      process_default = choice_from_text(text, launches_kernels);
    } catch (const device_error& failure) {
      throw device_error(std::string("FUNCMESH_EXECUTOR: ") + failure.what());
    }
  }
  std::optional<executor>& resolved = process_default->resolved[launches_kernels ? 1 : 0];
  if (!resolved) {
    const executor wanted =
        process_default->automatic ? best_available_executor_for(true) : process_default->chosen;
    resolved =
        wanted.kind() == executor_kind::cuda && !launches_kernels ? host_fallback(wanted) : wanted;
  }
  return *resolved;
}

std::vector<executor> available_executors_for(bool launches_kernels) {
  std::vector<executor> result{executor::serial()};
  if (config::openmp) result.push_back(executor::openmp());
  if (!launches_kernels) return result;
  for (int device = 0; device < visible_gpu_count(); ++device) {
    result.push_back(executor::cuda(device));
  }
  return result;
}

}  // namespace detail

void set_default_executor(executor chosen) {
  std::lock_guard lock(default_mutex);
  process_choice choice;
  choice.automatic = false;
  choice.chosen = chosen;
  process_default = choice;
}

void set_default_executor(std::string_view text) {
  // Checked as nvcc-compiled code would see it: "cuda" must name a visible device.
  process_choice choice = choice_from_text(text, true);
  std::lock_guard lock(default_mutex);
  process_default = choice;
}

void set_executor_notes(bool enabled) { notes_enabled.store(enabled); }

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
