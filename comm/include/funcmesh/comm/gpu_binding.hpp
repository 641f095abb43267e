// Rank -> GPU binding: each rank on a node takes device local_rank % visible devices, or
// the device FUNCMESH_GPU names. (FUNCMESH_DEVICE is the framework's device-code macro.)
// CUDA-free: the checks happen at run time through funcmesh::config::cuda.
#pragma once

#include <optional>

#include <funcmesh/comm/communicator.hpp>

namespace funcmesh::mpi {

// local_rank % visible_devices; throws funcmesh::error for a negative rank or no devices.
int choose_gpu(int local_rank, int visible_devices);

// FUNCMESH_GPU's value: nullopt for unset (nullptr) or empty, else an integer >= 0;
// anything else throws funcmesh::error naming the variable and the value.
std::optional<int> parse_gpu_override(const char* value);

// The device this rank uses: FUNCMESH_GPU when set (checked against the visible
// devices), else local rank modulo visible CUDA devices; nullopt when this build has no
// CUDA or no GPU is visible. Collective on `comm` (it splits by node and agrees on
// errors, so a bad FUNCMESH_GPU on one rank fails every rank together).
std::optional<int> bound_device(const communicator& comm);

// Makes executor::cuda(bound_device) the default executor when a GPU is bound and
// FUNCMESH_EXECUTOR is unset or "auto"; otherwise leaves the default alone. Collective.
void bind_default_executor(const communicator& comm);

}  // namespace funcmesh::mpi
