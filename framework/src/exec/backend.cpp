#include <funcmesh/exec/backend.hpp>
#include <funcmesh/memory/memory_error.hpp>

#include <string>

namespace funcmesh::exec::detail {

void throw_backend_unavailable(const executor& chosen, bool compiled_by_nvcc,
                               const loop_label& label) {
  std::string message =
      "funcmesh: cannot run " + label.text() + " on the " + chosen.name() + " executor: ";
  if (chosen.kind() == executor_kind::cuda && !compiled_by_nvcc) {
    message +=
        "CUDA kernels are compiled by nvcc, and this translation unit was compiled by the "
        "host compiler. Compile the file that contains the expression as CUDA (a .cu file, "
        "or set_source_files_properties(... LANGUAGE CUDA)).";
  } else {
    message += "this backend is not built into this funcmesh.";
  }
  throw device_error(message);
}

}  // namespace funcmesh::exec::detail
