// mpi_leaks_ignored: while one lives, LeakSanitizer ignores what this thread allocates.
// Open MPI keeps what MPI_Init and MPI_Finalize allocate until exit by design; marking it
// ignored at allocation keeps it out of the leak report without suppressions, whose
// matching looks up MPI's unloaded plugins (about 1 s of every process's exit).
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define FUNCMESH_LEAK_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#include <sanitizer/lsan_interface.h>
#define FUNCMESH_LEAK_SANITIZER 1
#endif
#endif

namespace funcmesh::mpi::detail {

// Nothing in a build without a sanitizer.
struct mpi_leaks_ignored {
  mpi_leaks_ignored() {
#if defined(FUNCMESH_LEAK_SANITIZER)
    __lsan_disable();
#endif
  }
  ~mpi_leaks_ignored() {
#if defined(FUNCMESH_LEAK_SANITIZER)
    __lsan_enable();
#endif
  }
  mpi_leaks_ignored(const mpi_leaks_ignored&) = delete;
  mpi_leaks_ignored& operator=(const mpi_leaks_ignored&) = delete;
};

}  // namespace funcmesh::mpi::detail
