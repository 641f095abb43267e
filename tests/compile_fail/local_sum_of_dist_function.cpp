// Must not compile: a local reduction of a dist_function (this rank's part only, silently
// wrong under mpirun); the error says to use global_sum. With -DFUNCMESH_CONTROL it is
// global_sum and must compile.
#include <funcmesh/comm.hpp>

namespace fm = funcmesh;

double total(const fm::distributed_layout& layout) {
  fm::dist_function<double> u(layout, "u");
  u = 1.0;
#if defined(FUNCMESH_CONTROL)
  return fm::global_sum(u) + fm::sum(u.local_values());
#else
  return fm::sum(u);
#endif
}
