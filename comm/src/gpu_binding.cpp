// Rank -> GPU binding, decided at run time so that comm needs no device compiler.
#include <funcmesh/comm/gpu_binding.hpp>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <mpi.h>

#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/core/settings.hpp>
#include <funcmesh/exec/executor.hpp>

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
  // The settings table's parser, on this text alone.
  const settings alone = settings::read(
      [&](const char* name) { return std::string_view(name) == "FUNCMESH_GPU" ? value : nullptr; });
  const setting<std::optional<int>>& parsed = alone.gpu;
  if (!parsed.accepted()) throw error(rank_prefix() + parsed.problem());
  return parsed.value();
}

std::optional<int> gpu_for_rank(int local_rank, int visible_devices, const char* override_text) {
  return gpu_for_rank(local_rank, visible_devices, parse_gpu_override(override_text));
}

std::optional<int> gpu_for_rank(int local_rank, int visible_devices, std::optional<int> requested) {
  if (visible_devices <= 0) return std::nullopt;
  if (requested && *requested >= visible_devices)
    throw error(rank_prefix() + "FUNCMESH_GPU=" + std::to_string(*requested) + " but only " +
                std::to_string(visible_devices) + " CUDA device(s) are visible");
  return requested ? *requested : choose_gpu(local_rank, visible_devices);
}

std::optional<int> bound_device(const communicator& comm) {
  // Every rank makes the same collective calls whatever its environment says.
  const int local = comm.local_rank();
  std::optional<int> device;
  std::exception_ptr failure;
  try {
    device = gpu_for_rank(local, visible_gpu_count(), settings::get().gpu.value());
  } catch (...) {
    failure = std::current_exception();
  }
  agree(comm, failure);
  return device;
}

std::optional<int> bind_rank_to_gpu(const communicator& comm) {
  const std::optional<int> device = bound_device(comm);
  std::exception_ptr failure;
  try {
    if (device) {
      bind_rank_device(*device);
    } else if (gpu_required()) {
      throw error(rank_prefix() +
                  "FUNCMESH_REQUIRE_GPU=1 but no GPU is visible: " + gpu_absence_reason());
    }
  } catch (...) {
    failure = std::current_exception();
  }
  agree(comm, failure);
  return device;
}

std::string describe_binding(int rank, const std::string& host, int local_rank, int local_size,
                             std::optional<int> device, int visible_devices,
                             const std::string& reason) {
  std::string line = "rank " + std::to_string(rank) + " on " + host + " (local rank " +
                     std::to_string(local_rank) + " of " + std::to_string(local_size) + "): ";
  if (device) {
    line += "cuda:" + std::to_string(*device) + " of " + std::to_string(visible_devices) +
            " visible GPU" + (visible_devices == 1 ? "" : "s");
  } else {
    line += "no GPU (" + reason + ")";
  }
  return line;
}

void print_bindings(const communicator& comm, std::optional<int> device) {
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  int host_length = 0;
  check_mpi(MPI_Get_processor_name(host, &host_length), "MPI_Get_processor_name", comm.get());
  const communicator node = comm.split_shared();
  const std::string line = describe_binding(
      comm.rank(), std::string(host, static_cast<std::size_t>(host_length)), node.rank(),
      node.size(), device, visible_gpu_count(), device ? std::string() : gpu_absence_reason());
  // Fixed-size lines keep the gather to one collective.
  constexpr int width = 256;
  std::vector<char> mine(width, '\0');
  line.copy(mine.data(), width - 1);
  std::vector<char> all(comm.rank() == 0 ? static_cast<std::size_t>(width) * comm.size() : 0);
  check_mpi(MPI_Gather(mine.data(), width, MPI_CHAR, all.data(), width, MPI_CHAR, 0, comm.get()),
            "MPI_Gather (GPU bindings)", comm.get());
  if (comm.rank() != 0) return;
  for (int r = 0; r < comm.size(); ++r)
    std::fprintf(stderr, "funcmesh: %s\n", all.data() + static_cast<std::size_t>(r) * width);
  std::fflush(stderr);
}

}  // namespace funcmesh::mpi
