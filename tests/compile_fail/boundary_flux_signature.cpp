// Must not compile: a boundary flux written with the interior flux's three arguments; the
// error names the expected b(T self, const face_view&). With -DFUNCMESH_CONTROL it takes two.
#include <funcmesh/comm.hpp>

namespace fm = funcmesh;

struct diffusion {
  double operator()(double self, double other, const fm::face_view& f) const {
    return (other - self) * f.area;
  }
};
struct three_argument_wall {
#if defined(FUNCMESH_CONTROL)
  double operator()(double, const fm::face_view&) const { return 0.0; }
#else
  double operator()(double, double, const fm::face_view&) const { return 0.0; }
#endif
};

void rhs(const fm::distributed_layout& layout, fm::dist_function<double>& u,
         fm::dist_function<double>& out) {
  out = fm::sum_over_faces(layout, diffusion{}, u, fm::on("wall", three_argument_wall{}));
}
