// Must not compile: g & f where g's argument cannot take f's result (a pointer from a
// double). With -DFUNCMESH_CONTROL g takes a double and it must compile.
#include <funcmesh/framework.hpp>

namespace fm = funcmesh;

#if defined(FUNCMESH_CONTROL)
using g_argument = double;
#else
using g_argument = const char*;
#endif

int main() {
  auto f = fm::_([](double x) { return 2.0 * x; });
  auto g = fm::_([](g_argument x) { return x ? 1 : 0; });
  auto h = g & f;
  return h(1.0) == 1 ? 0 : 1;
}
