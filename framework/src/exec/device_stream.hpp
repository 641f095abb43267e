// The backend half of exec::synchronize: the CUDA build waits for the executor's stream
// (exec/cuda/device_stream.cpp); a build without CUDA has no such executor (no_cuda).
#pragma once

#include <funcmesh/core/loop_label.hpp>
#include <funcmesh/exec/executor.hpp>

namespace funcmesh::detail {
void synchronize_cuda_stream(const executor& on, const exec::loop_label& why);
}  // namespace funcmesh::detail
