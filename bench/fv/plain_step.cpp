// bench/fv's plain loops: the second-order Euler step of fv_step.hpp over raw pointers into
// the face set's arrays (no grid expressions, no dist_function, no face sums), and a
// one-thread STREAM triad.
#include "plain_step.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <stdexcept>

#include <funcmesh/fv/limiters.hpp>

#include "bench_case.hpp"

namespace fv_bench {

namespace {

using vec3 = fm::vec<double, 3>;

// A vec3 column triple of the face set (x, y, z apart); a 2-D mesh's z is never read.
struct columns {
  const double* x;
  const double* y;
  const double* z;
};
columns columns_of(const fm::detail::vec3_view& v) {
  return {v.x.data(), v.y.data(), v.z.size() > 0 ? v.z.data() : nullptr};
}
template <int D>
inline vec3 at(const columns& c, std::int64_t i) {
  if constexpr (D == 3) {
    return {{c.x[i], c.y[i], c.z[i]}};
  } else {
    return {{c.x[i], c.y[i], 0.0}};
  }
}

// A gather entry's face (the entry holds f, or -1 - f where the cell is the face's second)
// and the sign of the face's normal seen from the cell.
inline std::int64_t face_of(std::int32_t e) { return e ^ (e >> 31); }
inline double orientation(std::int32_t e) { return static_cast<double>((e >> 31) | 1); }

// What the boundary condition reads of a face: its normal out of the cell and its group.
inline fm::face_view boundary_face(const vec3& normal, std::int32_t other) {
  fm::face_view f;
  f.normal = normal;
  f.physical = -1 - other;
  return f;
}

// The seconds f takes, added to `total`.
template <class F>
void timed(double& total, F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  const std::chrono::duration<double> t = std::chrono::steady_clock::now() - start;
  total += t.count();
}

}  // namespace

template <int D>
plain_step<D>::plain_step(const fm::face_set& faces, const fm::grid_function<double>& cell_size,
                          const fv::ideal_gas<D>& gas, const fv::euler_outside<D>& outside,
                          double dt)
    : faces_(faces.bind_to(fm::host_space, holder_)),
      cells_(faces.owned_count()),
      face_count_(faces.size()),
      hllc_{gas},
      outside_(outside),
      dt_(dt) {
  if (faces.cell_count() != faces.owned_count()) {
    throw std::invalid_argument("bench/fv: the plain step runs on one part with no halo");
  }
  inverse_ = faces.least_squares_inverse<D>().values().read_view(fm::host_space, holder_).data();
  cell_size_ = cell_size.values().read_view(fm::host_space, holder_).data();
  volume_ = faces.cell_volumes().data();
  const auto n = static_cast<std::size_t>(cells_);
  u_.resize(n);
  const initial_state<D> initial{gas};
  for (std::size_t c = 0; c < n; ++c) {
    const auto& x = faces.cell_centroids()[c];
    u_[c] = initial(vec3{{x[0], x[1], x[2]}});
  }
  u1_.resize(n);
  residual_.resize(n);
  gradient_.resize(n);
  limited_.resize(n);
  bounds_.resize(n);
}

// Weighted least squares: sum over the faces of w (u_other - u_self) d (x), d the step to the
// neighbour's centroid (to the face centroid, with the far-field state, on the boundary),
// w = 1 / |d|^2; then the cell's inverse matrix times the sum.
template <int D>
void plain_step<D>::gradients(const state* v) {
  const std::int32_t* offsets = faces_.offsets.data();
  const std::int32_t* other = faces_.other.data();
  const std::int32_t* entry = faces_.entry_face.data();
  const columns face_centre = columns_of(faces_.centroid);
  const columns cell_centre = columns_of(faces_.cell_centroid);
  const columns normal = columns_of(faces_.normal);
  for (std::int64_t c = 0; c < cells_; ++c) {
    double sum[components][D] = {};
    const state mine = v[c];
    const vec3 centre = at<D>(cell_centre, c);
    for (std::int64_t k = offsets[c]; k < offsets[c + 1]; ++k) {
      const std::int32_t e = entry[k], o = other[k];
      const std::int64_t f = face_of(e);
      const vec3 xf = at<D>(face_centre, f);
      vec3 d;
      state difference;
      if (o >= 0) {
        d = (xf - centre) - (xf - at<D>(cell_centre, o));
        difference = v[o] - mine;
      } else {
        d = xf - centre;
        difference = outside_(mine, boundary_face(orientation(e) * at<D>(normal, f), o)) - mine;
      }
      double length2 = 0;
      for (int x = 0; x < D; ++x) length2 += d[x] * d[x];
      const double w = 1 / length2;
      for (int i = 0; i < components; ++i) {
        for (int x = 0; x < D; ++x) sum[i][x] += difference[i] * (w * d[x]);
      }
    }
    const auto& m = inverse_[c];
    gradient& g = gradient_[static_cast<std::size_t>(c)];
    for (int i = 0; i < components; ++i) {
      const double* s = sum[i];
      if constexpr (D == 2) {
        g.g[i][0] = m[0] * s[0] + m[2] * s[1];
        g.g[i][1] = m[2] * s[0] + m[1] * s[1];
      } else {
        g.g[i][0] = m[0] * s[0] + m[3] * s[1] + m[4] * s[2];
        g.g[i][1] = m[3] * s[0] + m[1] * s[1] + m[5] * s[2];
        g.g[i][2] = m[4] * s[0] + m[5] * s[1] + m[2] * s[2];
      }
    }
  }
}

// The smallest and largest of each component over the cell, its neighbours and the
// far-field states of its boundary faces.
template <int D>
void plain_step<D>::bounds(const state* v) {
  const std::int32_t* offsets = faces_.offsets.data();
  const std::int32_t* other = faces_.other.data();
  const std::int32_t* entry = faces_.entry_face.data();
  const columns normal = columns_of(faces_.normal);
  for (std::int64_t c = 0; c < cells_; ++c) {
    const state mine = v[c];
    range r{mine, mine};
    for (std::int64_t k = offsets[c]; k < offsets[c + 1]; ++k) {
      const std::int32_t o = other[k];
      state value;
      if (o >= 0) {
        value = v[o];
      } else {
        const std::int32_t e = entry[k];
        value = outside_(mine, boundary_face(orientation(e) * at<D>(normal, face_of(e)), o));
      }
      for (int i = 0; i < components; ++i) {
        r.lo[i] = value[i] < r.lo[i] ? value[i] : r.lo[i];
        r.hi[i] = value[i] > r.hi[i] ? value[i] : r.hi[i];
      }
    }
    bounds_[static_cast<std::size_t>(c)] = r;
  }
}

// Each component's gradient times the smallest Venkatakrishnan factor over the cell's
// faces, eps^2 = (K h)^3.
template <int D>
void plain_step<D>::limit(const state* v) {
  const std::int32_t* offsets = faces_.offsets.data();
  const std::int32_t* entry = faces_.entry_face.data();
  const columns face_centre = columns_of(faces_.centroid);
  const columns cell_centre = columns_of(faces_.cell_centroid);
  const fv::venkatakrishnan limiter;
  for (std::int64_t c = 0; c < cells_; ++c) {
    const auto cell = static_cast<std::size_t>(c);
    const gradient& g = gradient_[cell];
    const range& r = bounds_[cell];
    const state mine = v[c];
    const double kh = venkat_k * cell_size_[c];
    const double eps2 = kh * kh * kh;
    double factor[components];
    for (double& x : factor) x = std::numeric_limits<double>::infinity();
    const vec3 centre = at<D>(cell_centre, c);
    for (std::int64_t k = offsets[c]; k < offsets[c + 1]; ++k) {
      const vec3 offset = at<D>(face_centre, face_of(entry[k])) - centre;
      for (int i = 0; i < components; ++i) {
        double delta = 0;
        for (int x = 0; x < D; ++x) delta += g.g[i][x] * offset[x];
        const double phi = limiter(delta, r.lo[i] - mine[i], r.hi[i] - mine[i], eps2);
        factor[i] = phi < factor[i] ? phi : factor[i];
      }
    }
    gradient& out = limited_[cell];
    for (int i = 0; i < components; ++i) {
      for (int x = 0; x < D; ++x) out.g[i][x] = factor[i] * g.g[i][x];
    }
  }
}

// residual = sum over each cell's faces of -A HLLC(left, right, n), left and right the
// linear reconstructions at the face centroid: one loop over the faces, each flux added to
// its second cell and subtracted from its first.
template <int D>
void plain_step<D>::fluxes(const state* v) {
  const fm::vec<std::int32_t, 2>* cells = faces_.face_cells.data();
  const double* area = faces_.area.data();
  const columns face_centre = columns_of(faces_.centroid);
  const columns cell_centre = columns_of(faces_.cell_centroid);
  const columns normal = columns_of(faces_.normal);
  auto reconstructed = [&](std::int64_t c, const vec3& xf) {
    const vec3 offset = xf - at<D>(cell_centre, c);
    const gradient& g = limited_[static_cast<std::size_t>(c)];
    state value = v[c];
    for (int i = 0; i < components; ++i) {
      double delta = 0;
      for (int x = 0; x < D; ++x) delta += g.g[i][x] * offset[x];
      value[i] = value[i] + delta;
    }
    return value;
  };
  std::fill(residual_.begin(), residual_.end(), state{});
  for (std::int64_t f = 0; f < face_count_; ++f) {
    const std::int32_t first = cells[f][0], second = cells[f][1];
    const vec3 xf = at<D>(face_centre, f);
    const vec3 n = at<D>(normal, f);
    const state left = reconstructed(first, xf);
    if (second >= 0) {
      const state flux = area[f] * hllc_(left, reconstructed(second, xf), n);
      residual_[static_cast<std::size_t>(first)] -= flux;
      residual_[static_cast<std::size_t>(second)] += flux;
    } else {
      const state flux = area[f] * hllc_(left, outside_(left, boundary_face(n, second)), n);
      residual_[static_cast<std::size_t>(first)] -= flux;
    }
  }
}

template <int D>
void plain_step<D>::step() {
  const auto n = static_cast<std::size_t>(cells_);
  double* seconds = pass_seconds_.data();
  timed(seconds[0], [&] { gradients(u_.data()); });
  timed(seconds[1], [&] { bounds(u_.data()); });
  timed(seconds[2], [&] { limit(u_.data()); });
  timed(seconds[3], [&] {
    fluxes(u_.data());
    for (std::size_t c = 0; c < n; ++c) u1_[c] = u_[c] + dt_ * (residual_[c] / volume_[c]);
  });
  timed(seconds[0], [&] { gradients(u1_.data()); });
  timed(seconds[1], [&] { bounds(u1_.data()); });
  timed(seconds[2], [&] { limit(u1_.data()); });
  timed(seconds[3], [&] {
    fluxes(u1_.data());
    for (std::size_t c = 0; c < n; ++c) {
      u_[c] = 0.5 * u_[c] + 0.5 * (u1_[c] + dt_ * (residual_[c] / volume_[c]));
    }
  });
}

template class plain_step<2>;
template class plain_step<3>;

double triad_bytes_per_second(std::int64_t n, int repeats) {
  const auto size = static_cast<std::size_t>(n);
  std::vector<double> a(size, 0.0), b(size, 1.0), c(size, 2.0);
  const double s = 3.0;
  double best = 0;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    double* __restrict__ out = a.data();
    const double* __restrict__ x = b.data();
    const double* __restrict__ y = c.data();
    for (std::size_t i = 0; i < size; ++i) out[i] = x[i] + s * y[i];
    const std::chrono::duration<double> t = std::chrono::steady_clock::now() - start;
    best = std::max(best, 3.0 * 8.0 * static_cast<double>(n) / t.count());
    // The result feeds the next round, so that no round can be dropped as dead.
    std::swap(a, b);
  }
  return best;
}

}  // namespace fv_bench
