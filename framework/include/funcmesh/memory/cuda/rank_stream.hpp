// The rank's CUDA stream of each device, owned by the memory layer (which binds the rank's
// device and makes its copies on it): the CUDA backend's loops and the CUDA memory manager's
// copies all go there, in the order they were issued, the host waiting only where it
// synchronises. CUDA builds only: it names cudaStream_t.
#pragma once

#include <cuda_runtime_api.h>

#include <funcmesh/core/loop_label.hpp>

namespace funcmesh::detail {

// Non-blocking (it never waits for the legacy default stream), created at first use and
// kept for the process (destroying it at exit would race the driver's own teardown).
// Throws device_error for a device outside [0, 64) or when it cannot be created.
cudaStream_t rank_stream(int device);

// The rank's second stream of `device` (non-blocking, kept like the first), made to wait
// for everything issued so far on `after` (nullptr: rank_stream(device)): the copies of a
// halo round's packed bytes to the host go there, so that the loops launched on the
// rank's stream meanwhile run beside them. The host waits for it (synchronize_stream)
// before it hands the bytes to MPI. Throws as rank_stream.
cudaStream_t fork_side_stream(int device, cudaStream_t after = nullptr);
// The second stream of `device` if fork_side_stream made it, else nullptr (never throws).
cudaStream_t existing_side_stream(int device) noexcept;

// The host waits for `stream`. A failure is a device_error naming `why` and the last loop
// launched (profile/device_activity.hpp): a kernel's fault surfaces at the next
// synchronisation after it, not at its launch.
void synchronize_stream(cudaStream_t stream, const exec::loop_label& why);

}  // namespace funcmesh::detail
