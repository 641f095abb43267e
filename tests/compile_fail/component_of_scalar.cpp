// Must not compile: component<k> of an expression of numbers; the error says component
// reads a vec's components. With -DFUNCMESH_CONTROL the expression holds vec values.
#include <funcmesh/framework.hpp>

namespace fm = funcmesh;

void first(fm::grid_function<double>& out) {
#if defined(FUNCMESH_CONTROL)
  fm::grid_function<fm::vec<double, 2>> v(out.owned_size(), "v");
#else
  fm::grid_function<double> v(out.owned_size(), "v");
#endif
  out = fm::component<0>(v);
}
