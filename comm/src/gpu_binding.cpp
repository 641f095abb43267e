// Rank -> GPU binding, decided at run time so that comm needs no device compiler.
#include <funcmesh/comm/gpu_binding.hpp>

#include <cerrno>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/config.hpp>
#include <funcmesh/exec/executor.hpp>
#include <funcmesh/memory/memory_manager.hpp>

namespace funcmesh::mpi {

int choose_gpu(int local_rank, int visible_devices) {
  if (visible_devices <= 0)
    throw error(rank_prefix() + "choose_gpu: no visible devices (" +
                std::to_string(visible_devices) + ")");
  if (local_rank < 0)
    throw error(rank_prefix() + "choose_gpu: negative local rank " + std::to_string(local_rank));
  return local_rank % visible_devices;
}

std::optional<int> parse_gpu_override(const char* value) {
  if (value == nullptr || *value == '\0') return std::nullopt;
  const auto bad = [&] {
    return error(rank_prefix() + "FUNCMESH_GPU=\"" + std::string(value) +
                 "\" is not a device index (an integer >= 0)");
  };
  char* end = nullptr;
  errno = 0;
  const long parsed = std::strtol(value, &end, 10);
  // strtol skips leading spaces and accepts a sign; neither belongs in a device index.
  if (value[0] < '0' || value[0] > '9' || *end != '\0' || errno == ERANGE || parsed > 1'000'000)
    throw bad();
  return static_cast<int>(parsed);
}

std::optional<int> bound_device(const communicator& comm) {
  // Every rank makes the same collective calls whatever its environment says.
  const int local = comm.local_rank();
  std::optional<int> device;
  std::exception_ptr failure;
  try {
    const std::optional<int> requested = parse_gpu_override(std::getenv("FUNCMESH_GPU"));
    const int visible = config::cuda ? memory_manager_for(space_kind::cuda).device_count() : 0;
    if (requested && visible > 0 && *requested >= visible)
      throw error("FUNCMESH_GPU=" + std::to_string(*requested) + " but only " +
                  std::to_string(visible) + " CUDA device(s) are visible");
    if (visible > 0) device = requested ? *requested : choose_gpu(local, visible);
  } catch (...) {
    failure = std::current_exception();
  }
  agree(comm, failure);
  return device;
}

void bind_default_executor(const communicator& comm) {
  const std::optional<int> device = bound_device(comm);
  const char* chosen = std::getenv("FUNCMESH_EXECUTOR");
  const bool automatic = chosen == nullptr || *chosen == '\0' || std::string_view(chosen) == "auto";
  std::exception_ptr failure;
  if (device && automatic) {
    try {
      set_default_executor(executor::cuda(*device));
    } catch (...) {
      failure = std::current_exception();
    }
  }
  agree(comm, failure);
}

}  // namespace funcmesh::mpi
