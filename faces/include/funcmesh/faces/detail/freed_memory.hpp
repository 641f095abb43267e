// return_freed_memory: hands the heap's freed pages back to the system after a set-up step
// that freed large temporaries (the global mesh, a face set's face list).
#pragma once

namespace funcmesh::detail {

// glibc's malloc_trim; no effect elsewhere.
void return_freed_memory() noexcept;

}  // namespace funcmesh::detail
