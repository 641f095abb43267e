// Must not compile with deprecations as errors: the spellings renamed for one release
// (layout.local(), u.local(), layout.halo(), u.halo(), faces.bind(space, holder)); each
// message names the new form. With -DFUNCMESH_CONTROL (the new names) it must compile.
#include <funcmesh/comm.hpp>

#pragma GCC diagnostic error "-Wdeprecated-declarations"

namespace fm = funcmesh;

fm::index_t old_names(const fm::distributed_layout& layout, fm::dist_function<double>& u,
                      fm::token& holder) {
#if defined(FUNCMESH_CONTROL)
  const fm::index_t cells = layout.mesh().owned_count + u.local_values().total_size();
  const bool stale = u.halo_status().stale();
  const std::size_t neighbours = layout.exchange_plan().neighbour_count();
  const fm::face_set_view view = layout.faces().bind_to(fm::host_space, holder);
#else
  const fm::index_t cells = layout.local().owned_count + u.local().total_size();
  const bool stale = u.halo().stale();
  const std::size_t neighbours = layout.halo().neighbour_count();
  const fm::face_set_view view = layout.faces().bind(fm::host_space, holder);
#endif
  return cells + (stale ? 1 : 0) + static_cast<fm::index_t>(neighbours) + view.area.size();
}
