// Rank -> GPU binding: each rank on a node takes device local_rank % visible devices, or
// the device FUNCMESH_GPU names; the MPI environment binds at start-up, so that "cuda"
// means the rank's own GPU. (FUNCMESH_DEVICE is the framework's device-code macro.)
#pragma once

#include <optional>
#include <string>

#include <funcmesh/comm/communicator.hpp>

namespace funcmesh::mpi {

// local_rank % visible_devices; throws funcmesh::error for a negative rank or no devices.
int choose_gpu(int local_rank, int visible_devices);

// FUNCMESH_GPU's value: nullopt for unset (nullptr) or empty, else an integer >= 0;
// anything else throws funcmesh::error naming the variable and the value.
std::optional<int> parse_gpu_override(const char* value);

// The rule itself, without MPI or devices: nullopt when no device is visible, else
// FUNCMESH_GPU's device (override_text; checked against the visible ones) or
// local_rank % visible. Throws funcmesh::error naming the variable.
std::optional<int> gpu_for_rank(int local_rank, int visible_devices, const char* override_text);
// The same with FUNCMESH_GPU already parsed (funcmesh::settings::gpu).
std::optional<int> gpu_for_rank(int local_rank, int visible_devices, std::optional<int> requested);

// The device this rank uses by that rule (nullopt when this build has no CUDA or no GPU
// is visible). Collective on `comm` (it splits by node and agrees on errors, so a bad
// FUNCMESH_GPU on one rank fails every rank together).
std::optional<int> bound_device(const communicator& comm);

// Binds this rank to bound_device(comm) (funcmesh::bind_rank_device: current once, and what
// "cuda" means) and returns it. With FUNCMESH_REQUIRE_GPU=1, a rank without a GPU fails
// every rank together. Collective; the MPI environment calls it at start-up.
std::optional<int> bind_rank_to_gpu(const communicator& comm);

// "rank 3 on node7 (local rank 1 of 4): cuda:1 of 4 visible GPUs" (or "no GPU: <reason>").
std::string describe_binding(int rank, const std::string& host, int local_rank, int local_size,
                             std::optional<int> device, int visible_devices,
                             const std::string& absence_reason);

// Rank 0 prints every rank's line of describe_binding, in rank order, to stderr. Collective.
void print_bindings(const communicator& comm, std::optional<int> device);

}  // namespace funcmesh::mpi
