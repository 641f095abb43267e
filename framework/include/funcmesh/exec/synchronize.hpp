// exec::synchronize: the host waits for the device work an executor has issued, at the few
// places where the host reads what the device wrote (everything else is launched and left
// to run: docs/gpu.md). Counted in device_activity (profile/device_activity.hpp).
#pragma once

#include <funcmesh/core/loop_label.hpp>

namespace funcmesh {
class executor;
}  // namespace funcmesh

namespace funcmesh::exec {

// The host waits for every loop and copy issued so far on the executor's stream (CUDA:
// cudaStreamSynchronize on the rank's stream; the simulated device counts it). Nothing on
// the host executors. `why` names the wait in the counts ("halo send buffers before
// MPI_Startall"). A fault of an earlier kernel surfaces here as a device_error naming the
// last loop launched.
void synchronize(const executor& on, const loop_label& why);

}  // namespace funcmesh::exec
