#include <funcmesh/faces/detail/freed_memory.hpp>

#include <cstdlib>  // first: it defines __GLIBC__ (through <features.h>), which the test below needs

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace funcmesh::detail {

void return_freed_memory() noexcept {
#if defined(__GLIBC__)
  // The set-up's temporaries leave freed pages inside the heap, which glibc keeps mapped
  // (large blocks come from the heap once its mmap threshold has grown): give them back.
  malloc_trim(0);
#endif
}

}  // namespace funcmesh::detail
