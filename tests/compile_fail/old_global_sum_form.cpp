// Must not compile: a global reduction given a raw communicator, the form before layouts;
// the error says to pass the layout or let the expression name it. With -DFUNCMESH_CONTROL
// the layout is passed and it must compile.
#include <funcmesh/comm.hpp>

namespace fm = funcmesh;

double total(const fm::distributed_layout& layout) {
  fm::dist_function<double> u(layout, "u");
  u = 1.0;
#if defined(FUNCMESH_CONTROL)
  return fm::global_sum(layout, layout.volume() * u);
#else
  return fm::global_sum(MPI_COMM_WORLD, layout.volume() * u);
#endif
}
