// Must not compile: mpi::bind_default_executor(comm), called before ranks were bound to
// their GPU at start-up; the error says the call can go. With -DFUNCMESH_CONTROL there is
// no call and it must compile.
#include <funcmesh/comm.hpp>

namespace fm = funcmesh;

void start(const fm::mpi::communicator& world) {
#if defined(FUNCMESH_CONTROL)
  (void)world;
#else
  fm::mpi::bind_default_executor(world);
#endif
}
