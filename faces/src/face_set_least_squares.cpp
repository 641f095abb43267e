// face_set::least_squares_inverse: each owned cell's weighted least-squares matrix, inverted
// (or pseudo-inverted where its steps do not span the space) once, on the host, and kept.
#include <funcmesh/faces/face_set.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <funcmesh/core/error.hpp>

namespace funcmesh {

namespace detail {
// One set of matrices per set of mirrored boundary groups (by value: a sorted id list).
// Held by unique_ptr so that a reference handed out stays valid as the map grows.
struct face_set_lazy {
  std::mutex mutex;
  std::map<std::vector<int>, std::unique_ptr<grid_function<vec<double, 3>>>> least_squares_2d;
  std::map<std::vector<int>, std::unique_ptr<grid_function<vec<double, 6>>>> least_squares_3d;
};
std::shared_ptr<face_set_lazy> make_face_set_lazy() { return std::make_shared<face_set_lazy>(); }
}  // namespace detail

namespace {

template <int D>
using square = std::array<std::array<double, D>, D>;

// The pseudo-inverse of a symmetric positive semi-definite D x D matrix by Jacobi's
// eigenvalue iteration (exact to rounding for these sizes in a few sweeps): eigenvalues below
// `relative` times the largest count as zero. Every rank runs the same arithmetic on the
// same bits, so the result is rank-independent.
template <int D>
square<D> pseudo_inverse(square<D> a, double relative) {
  square<D> v{};
  for (int i = 0; i < D; ++i) v[i][i] = 1;
  for (int sweep = 0; sweep < 32; ++sweep) {
    double off = 0, scale = 0;
    for (int i = 0; i < D; ++i) {
      scale += a[i][i] * a[i][i];
      for (int j = i + 1; j < D; ++j) off += a[i][j] * a[i][j];
    }
    if (off <= 1e-30 * scale) break;
    for (int p = 0; p < D; ++p) {
      for (int q = p + 1; q < D; ++q) {
        if (a[p][q] == 0) continue;
        // The rotation that zeroes a[p][q] (the smaller angle).
        const double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const double t =
            (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < D; ++k) {  // a <- a J
          const double akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (int k = 0; k < D; ++k) {  // a <- J^T a
          const double apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (int k = 0; k < D; ++k) {  // v <- v J
          const double vkp = v[k][p], vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
  double largest = 0;
  for (int i = 0; i < D; ++i) largest = std::max(largest, std::abs(a[i][i]));
  square<D> inverse{};
  for (int e = 0; e < D; ++e) {
    const double lambda = a[e][e];
    if (!(lambda > relative * largest)) continue;  // a direction the steps do not see
    for (int i = 0; i < D; ++i) {
      for (int j = 0; j < D; ++j) inverse[i][j] += v[i][e] * v[j][e] / lambda;
    }
  }
  return inverse;
}

constexpr double singular_below = 1e-10;

template <int D>
std::unique_ptr<grid_function<vec<double, D*(D + 1) / 2>>> build(const face_set& faces,
                                                                 const std::vector<int>& mirrored) {
  token holder;
  const face_set_view view = faces.bind_to(host_space, holder);
  auto out = std::make_unique<grid_function<vec<double, D*(D + 1) / 2>>>(faces.owned_count(),
                                                                         "least_squares_inverse");
  auto values = out->write();
  for (index_t c = 0; c < faces.owned_count(); ++c) {
    square<D> m{};
    for (index_t k = view.offsets[c]; k < view.offsets[c + 1]; ++k) {
      const face_view f = view.entry(k);
      const bool mirror = view.other[k] < 0 && std::ranges::binary_search(mirrored, f.physical);
      const vec<double, 3> d = mirror ? f.mirror_step() : f.step();
      double length2 = 0;
      for (int i = 0; i < D; ++i) length2 += d[i] * d[i];
      const double w = 1 / length2;
      for (int i = 0; i < D; ++i) {
        for (int j = 0; j < D; ++j) m[i][j] += w * d[i] * d[j];
      }
    }
    const square<D> inverse = pseudo_inverse<D>(m, singular_below);
    vec<double, D*(D + 1) / 2> packed{};
    for (int i = 0; i < D; ++i) packed[i] = inverse[i][i];
    int next = D;
    for (int i = 0; i < D; ++i) {
      for (int j = i + 1; j < D; ++j) packed[next++] = inverse[i][j];
    }
    values[c] = packed;
  }
  values.release();
  return out;
}

}  // namespace

template <int D>
const grid_function<vec<double, D*(D + 1) / 2>>& face_set::least_squares_inverse(
    std::vector<int> mirrored) const {
  if (D != dimension_) {
    throw error("funcmesh::face_set::least_squares_inverse<" + std::to_string(D) +
                ">: the mesh is " + std::to_string(dimension_) + "-D");
  }
  if (!stored_.cell_offsets) {
    throw error(
        "funcmesh::face_set::least_squares_inverse: the cell offsets are not stored (the face "
        "set was built with face_geometry::cell_offsets off)");
  }
  std::ranges::sort(mirrored);
  mirrored.erase(std::unique(mirrored.begin(), mirrored.end()), mirrored.end());
  detail::face_set_lazy& lazy = *lazy_;
  const std::lock_guard<std::mutex> lock(lazy.mutex);
  auto& built = [&]() -> auto& {
    if constexpr (D == 2) {
      return lazy.least_squares_2d;
    } else {
      return lazy.least_squares_3d;
    }
  }
  ();
  auto& entry = built[mirrored];
  if (!entry) entry = build<D>(*this, mirrored);
  return *entry;
}

template const grid_function<vec<double, 3>>& face_set::least_squares_inverse<2>(
    std::vector<int>) const;
template const grid_function<vec<double, 6>>& face_set::least_squares_inverse<3>(
    std::vector<int>) const;

}  // namespace funcmesh
