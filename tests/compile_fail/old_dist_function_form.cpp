// Must not compile: a dist_function built from a communicator and a local mesh, the form
// before layouts; the error says to build it from the layout distribute() returns. With
// -DFUNCMESH_CONTROL it is built from the layout and must compile.
#include <funcmesh/comm.hpp>

namespace fm = funcmesh;

double total(const fm::distributed_layout& layout) {
#if defined(FUNCMESH_CONTROL)
  fm::dist_function<double> u(layout, "u");
#else
  fm::dist_function<double> u(MPI_COMM_WORLD, layout.mesh(), "u");
#endif
  u = 1.0;
  return fm::global_sum(u);
}
