// Must not compile: distribute()'s result held as a distributed_mesh, the name before
// layouts; the error says to hold a distributed_layout. With -DFUNCMESH_CONTROL it holds
// the layout and must compile.
#include <funcmesh/comm.hpp>

namespace fm = funcmesh;

fm::index_t owned(const fm::mesh& global) {
#if defined(FUNCMESH_CONTROL)
  const fm::distributed_layout layout = fm::distribute(MPI_COMM_WORLD, global);
  return layout.mesh().owned_count;
#else
  const fm::distributed_mesh dm = fm::distribute(MPI_COMM_WORLD, global);
  return dm.local.owned_count;
#endif
}
