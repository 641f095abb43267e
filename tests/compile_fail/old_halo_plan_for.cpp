// Must not compile: halo_plan_for(comm, local), the halo plan before layouts; the error
// says to use layout.exchange_plan(). With -DFUNCMESH_CONTROL it does and must compile.
#include <funcmesh/comm.hpp>

namespace fm = funcmesh;

std::size_t neighbours(const fm::distributed_layout& layout) {
#if defined(FUNCMESH_CONTROL)
  return layout.exchange_plan().neighbour_count();
#else
  return fm::halo_plan_for(layout.comm(), layout.mesh())->neighbour_count();
#endif
}
