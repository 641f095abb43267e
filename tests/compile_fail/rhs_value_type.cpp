// Must not compile: the time driver given an rhs whose values are numbers for a state of
// vec values (what a scalar flux summed into a vec state's rhs gives); the error names the
// mismatch at the driver call, not "the scheme needs step(...)". With -DFUNCMESH_CONTROL
// the rhs gives vec values and it must compile.
#include <funcmesh/comm.hpp>
#include <funcmesh/time.hpp>

namespace fm = funcmesh;
using state = fm::vec<double, 3>;

void advance(const fm::distributed_layout& layout, fm::dist_function<state>& u) {
  auto rhs = [&](const fm::dist_function<state>& v) {
#if defined(FUNCMESH_CONTROL)
    return 0.5 * v;
#else
    return fm::component<0>(v) / layout.volume();
#endif
  };
  const fm::time::driver run(fm::time::ssp_rk3{}, {.t_end = 1.0, .dt = 0.1});
  (void)run(u, rhs);
}
