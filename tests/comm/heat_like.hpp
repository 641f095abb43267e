// A heat-like distributed program for the SPMD tests: a perturbed quad box, u with a
// smooth start, a two-point diffusion rhs through sum_over_faces, a CFL dt and a residual
// from global reductions (the collectives a user asks for).
#pragma once

#include <mpi.h>

#include <cmath>

#include <funcmesh/comm.hpp>
#include <funcmesh/time.hpp>

namespace heat_like {

namespace fm = funcmesh;

struct diffusion {
  FUNCMESH_DEVICE double operator()(double self, double other, const fm::face_view& f) const {
    return (other - self) * f.area / f.distance;
  }
};
// u = 0 on the left, insulated elsewhere.
struct boundary {
  int left;
  FUNCMESH_DEVICE double operator()(double u, const fm::face_view& f) const {
    return f.physical == left ? -u * f.area / f.distance : 0.0;
  }
};
struct stiffness {
  FUNCMESH_DEVICE double operator()(double, const fm::face_view& f) const {
    return f.area / f.distance;
  }
};

inline fm::mesh box() {
  fm::box_options options;
  options.perturbation = 0.1;
  return fm::box2d_quad(36, 28, options);
}

struct problem {
  fm::distributed_layout layout = fm::distribute_generated(MPI_COMM_WORLD, box);
  fm::dist_function<double> u{layout, "u"};
  boundary walls{layout.faces().physical_id("left")};

  problem() {
    auto w = u.write();
    for (fm::index_t c = 0; c < layout.owned_count(); ++c) {
      const auto& x = layout.faces().cell_centroids()[static_cast<std::size_t>(c)];
      w[c] = std::sin(3 * x[0]) * std::cos(2 * x[1]);
    }
  }
  auto rhs(const fm::dist_function<double>& v) const {
    return fm::sum_over_faces(layout, diffusion{}, v, fm::on_other_groups(walls)) / layout.volume();
  }
  // The CFL bound: one global min (an MPI_Allreduce).
  double dt() const {
    return 0.2 * fm::global_min(
                     layout, layout.volume() / fm::sum_over_cell_faces(layout, stiffness{}, 0.0));
  }
};

}  // namespace heat_like
