// Must not compile: face_set_for(dm), the face set before layouts; the error says to use
// layout.faces(). With -DFUNCMESH_CONTROL it uses layout.faces() and must compile.
#include <funcmesh/comm.hpp>

namespace fm = funcmesh;

fm::index_t faces(const fm::distributed_layout& layout) {
#if defined(FUNCMESH_CONTROL)
  const fm::face_set& all = layout.faces();
#else
  const fm::face_set all = fm::face_set_for(layout);
#endif
  return all.size();
}
