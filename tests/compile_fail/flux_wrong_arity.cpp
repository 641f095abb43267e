// Must not compile: an interior flux of the wrong arity (a boundary flux's two arguments);
// the error names the expected signature flux(T self, T other, const face_view&) at the
// sum_over_faces call. With -DFUNCMESH_CONTROL the flux takes three and it must compile.
#include <funcmesh/comm.hpp>

namespace fm = funcmesh;

struct two_argument_flux {
#if defined(FUNCMESH_CONTROL)
  double operator()(double self, double other, const fm::face_view& f) const {
    return (other - self) * f.area;
  }
#else
  double operator()(double self, const fm::face_view& f) const { return self * f.area; }
#endif
};
struct wall {
  double operator()(double, const fm::face_view&) const { return 0.0; }
};

void rhs(const fm::distributed_layout& layout, fm::dist_function<double>& u,
         fm::dist_function<double>& out) {
  out = fm::sum_over_faces(layout, two_argument_flux{}, u, fm::on_other_groups(wall{}));
}
