// Must not compile: assigning a face expression to a cell function.
// With -DFUNCMESH_CONTROL the target is a face function and it must compile.
#include <funcmesh/framework.hpp>

namespace fm = funcmesh;

#if defined(FUNCMESH_CONTROL)
using target_kind = fm::faces;
#else
using target_kind = fm::cells;
#endif

int main() {
  fm::grid_function<double, fm::faces> area(4, "area");
  fm::grid_function<double, target_kind> target(4, "target");
  target = 2.0 * area;
  return 0;
}
