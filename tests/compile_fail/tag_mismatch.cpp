// Must not compile: an expression that adds a cell function to a face function.
// With -DFUNCMESH_CONTROL both are cell functions and it must compile (proof that the
// failure comes from the tags, not from a broken include path).
#include <funcmesh/framework.hpp>

namespace fm = funcmesh;

#if defined(FUNCMESH_CONTROL)
using other_kind = fm::cells;
#else
using other_kind = fm::faces;
#endif

int main() {
  fm::grid_function<double, fm::cells> pressure(4, "p");
  fm::grid_function<double, other_kind> flux(4, "flux");
  fm::grid_function<double, fm::cells> result(4, "r");
  result = pressure + flux;
  return 0;
}
