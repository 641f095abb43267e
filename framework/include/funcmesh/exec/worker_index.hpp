// worker_index(): which worker of the running host loop the calling thread is (OpenMP's
// thread number; 0 on the serial executor and outside loops), so that host-side loop state
// (a face sum's window of fluxes) can be kept per worker without locks.
#pragma once

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace funcmesh::exec {

// Host code only. An OpenMP loop's workers are 0 .. team size - 1; a loop run on the
// calling thread (serial, or below the policy's size) is worker 0 unless it runs inside
// an enclosing parallel region, where it is that region's thread number: callers check the
// index against what they allocated.
inline int worker_index() noexcept {
#if defined(_OPENMP)
  return omp_get_thread_num();
#else
  return 0;
#endif
}

}  // namespace funcmesh::exec
