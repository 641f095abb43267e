// Cell gradients of scalar and vec<double, N> fields: Green-Gauss (face averages) and
// weighted least squares (exact for linear fields on any mesh). Cells expressions that read
// u at neighbours: assigned to a dist_function, u's halo is exchanged first, as any face sum.
#pragma once

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <funcmesh/expr/grid_function.hpp>
#include <funcmesh/expr/zip_expr.hpp>
#include <funcmesh/faces/face_set.hpp>
#include <funcmesh/faces/face_sum.hpp>
#include <funcmesh/fv/detail/gradient_algebra.hpp>

namespace funcmesh::fv {

// The boundary value "the cell's own": a zero normal gradient (a wall for a scalar, an
// outflow). A gradient's boundary values are given by group as face sums' boundary fluxes
// are: on("inlet", b), on_other_groups(b), with b(u_cell, face) the value at the face
// centroid (a Dirichlet value, the exact solution, a boundary condition's outside state).
struct cell_value {
  template <class T>
  FUNCMESH_DEVICE constexpr T operator()(const T& self, const face_view&) const {
    return self;
  }
};

// At most this many mirrored boundary groups in one fit.
inline constexpr int max_mirrored_groups = 16;

namespace detail {

// Green-Gauss: the face value (the average of the two cells', or the boundary value) times
// the face's area vector.
template <int D>
struct green_gauss_face {
  static constexpr index_t work = 8;
  template <class T>
  FUNCMESH_DEVICE auto operator()(const T& self, const T& other, const face_view& f) const {
    return outer<D>(0.5 * (self + other), f.area * f.normal);
  }
};
template <int D, class B>
struct green_gauss_boundary {
  B value;
  template <class T>
  FUNCMESH_DEVICE auto operator()(const T& self, const face_view& f) const {
    return outer<D>(static_cast<T>(funcmesh::detail::call(value, self, f)), f.area * f.normal);
  }
};

// Weighted least squares: w (u_other - u_self) (x) d, d the step face_view::step() or
// mirror_step(), w = 1 / |d|^2: face_set::least_squares_inverse is built from the same steps
// and weights.
template <int D>
FUNCMESH_DEVICE inline vec<double, 3> weighted(const vec<double, 3>& d) {
  double length2 = 0;
  for (int k = 0; k < D; ++k) length2 += d[k] * d[k];
  return (1 / length2) * d;
}
template <int D>
struct least_squares_face {
  static constexpr index_t work = 10;
  template <class T>
  FUNCMESH_DEVICE auto operator()(const T& self, const T& other, const face_view& f) const {
    return outer<D>(other - self, weighted<D>(f.step()));
  }
};
// The mirrored boundary groups, as a kernel reads them.
struct mirrored_ids {
  int count = 0;
  int id[max_mirrored_groups] = {};
  FUNCMESH_DEVICE constexpr bool contains(int physical) const {
    for (int k = 0; k < count; ++k) {
      if (id[k] == physical) return true;
    }
    return false;
  }
};
template <int D, class B>
struct least_squares_boundary {
  B value;
  mirrored_ids mirrored;
  template <class T>
  FUNCMESH_DEVICE auto operator()(const T& self, const face_view& f) const {
    const T difference = static_cast<T>(funcmesh::detail::call(value, self, f)) - self;
    return outer<D>(difference,
                    weighted<D>(mirrored.contains(f.physical) ? f.mirror_step() : f.step()));
  }
};

struct divide_by_volume {
  template <class G>
  FUNCMESH_DEVICE constexpr G operator()(const G& sum, double volume) const {
    G r = sum;
    if constexpr (requires { r[0][0]; }) {
      for (int k = 0; k < G::size(); ++k) r[k] = (1 / volume) * sum[k];
    } else {
      r = (1 / volume) * sum;
    }
    return r;
  }
};
struct apply_least_squares {
  template <class G, class M>
  FUNCMESH_DEVICE constexpr G operator()(const G& sum, const M& inverse) const {
    return symmetric_times(inverse, sum);
  }
};

void check_gradient_faces(const face_set& faces, int dimension, bool offsets, const char* call);
mirrored_ids kernel_ids(const std::vector<int>& ids);

}  // namespace detail

// The boundary groups whose faces a least-squares fit sees as ghost cells: the point is the
// cell centroid's mirror image across the face and the boundary value is the ghost's (the
// outside state). Right for walls and symmetry planes (the mirrored state) and extrapolated
// outflows (the cell's own value: a zero normal gradient), whose value at the face centroid
// is not known; the other groups' points are the face centroids, with the value there (a
// Dirichlet value, an exact solution, a far field). mirrored(faces, {"wall"}) checks the
// names against the mesh's groups (an unknown one is an error that lists them).
struct mirrored_groups {
  std::vector<int> ids;
};
mirrored_groups mirrored(const face_set& faces, const std::vector<std::string>& names);

// grad u at each owned cell by Green-Gauss: (1 / V) sum over faces of u_f A n, u_f the
// average of the two cells' values (the boundary value on the domain boundary). Exact for
// linear fields only where each face centroid is the midpoint of the centroids' step
// (not on skewed or stretched meshes: least squares is). volume: the cells' volumes
// (layout.volume(), face_set::volume_function()). D: the mesh's dimension.
template <int D, class U, class... B>
auto green_gauss_gradient(const face_set& faces, const grid_function<double>& volume, const U& u,
                          const boundary_flux<B>&... boundary_values) {
  detail::check_gradient_faces(faces, D, false, "funcmesh::fv::green_gauss_gradient");
  auto sum = combine_over_faces(faces, add_values{}, detail::green_gauss_face<D>{}, u,
                                boundary_flux<detail::green_gauss_boundary<D, B>>{
                                    boundary_values.name, {boundary_values.flux}}...);
  return make_zip(detail::divide_by_volume{}, sum, volume);
}

// grad u at each owned cell by weighted least squares: the gradient g minimising
// sum over faces of w |u_other - u_self - g . d|^2 (d the step to the neighbour's centroid;
// on the domain boundary to the face centroid, with the boundary value there, or for the
// groups in `mirrored` to the ghost cell's centroid, with the boundary value as the ghost's;
// w = 1 / |d|^2). Exact for linear fields on any mesh, given exact boundary values; the
// matrices are computed once per face set (one per layout) and set of mirrored groups, and
// kept with it. A cell whose steps do not span the space gets the minimum-norm fit: zero in
// the directions it cannot see (face_set::least_squares_inverse).
template <int D, class U, class... B>
auto least_squares_gradient(const face_set& faces, const mirrored_groups& mirrored, const U& u,
                            const boundary_flux<B>&... boundary_values) {
  detail::check_gradient_faces(faces, D, true, "funcmesh::fv::least_squares_gradient");
  const detail::mirrored_ids ids = detail::kernel_ids(mirrored.ids);
  auto sum = combine_over_faces(faces, add_values{}, detail::least_squares_face<D>{}, u,
                                boundary_flux<detail::least_squares_boundary<D, B>>{
                                    boundary_values.name, {boundary_values.flux, ids}}...);
  return make_zip(detail::apply_least_squares{}, sum, faces.least_squares_inverse<D>(mirrored.ids));
}
// Every boundary value at its face centroid.
template <int D, class U, class... B>
auto least_squares_gradient(const face_set& faces, const U& u,
                            const boundary_flux<B>&... boundary_values) {
  return least_squares_gradient<D>(faces, mirrored_groups{}, u, boundary_values...);
}

}  // namespace funcmesh::fv
