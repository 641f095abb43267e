// Must not compile: a boundary flux whose value does not convert to the interior flux's
// (a vec where the faces add numbers); the error says so at the sum_over_faces call. With
// -DFUNCMESH_CONTROL it returns a number and it must compile.
#include <funcmesh/comm.hpp>

namespace fm = funcmesh;

struct diffusion {
  double operator()(double self, double other, const fm::face_view& f) const {
    return (other - self) * f.area;
  }
};
struct vec_wall {
#if defined(FUNCMESH_CONTROL)
  double operator()(double, const fm::face_view&) const { return 0.0; }
#else
  fm::vec<double, 2> operator()(double, const fm::face_view&) const { return {{0.0, 0.0}}; }
#endif
};

void rhs(const fm::distributed_layout& layout, fm::dist_function<double>& u,
         fm::dist_function<double>& out) {
  out = fm::sum_over_faces(layout, diffusion{}, u, fm::on_other_groups(vec_wall{}));
}
