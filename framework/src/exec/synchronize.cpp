// exec::synchronize: counted for every device executor, a real wait on CUDA.
#include <funcmesh/exec/synchronize.hpp>

#include <funcmesh/exec/executor.hpp>
#include <funcmesh/profile/device_activity.hpp>

#include "device_stream.hpp"

namespace funcmesh::exec {

void synchronize(const executor& on, const loop_label& why) {
  if (!on.on_device()) return;
  funcmesh::detail::record_synchronization(&why);
  if (on.kind() == executor_kind::cuda) funcmesh::detail::synchronize_cuda_stream(on, why);
}

}  // namespace funcmesh::exec
