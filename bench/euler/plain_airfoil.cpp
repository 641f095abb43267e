// Plain loops over raw arrays, as a programmer would write the Airfoil algorithm by hand.
// Face normals are computed once from the node coordinates: (dy, -dx) along each face,
// negated where it does not point from the first cell (or out of the domain).
#include "plain_airfoil.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>

#include <funcmesh/partition/mesh.hpp>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace {

// The face flux of section 2a from the left state a to the right state b, written as the
// original C code did: one reciprocal of rho per side, no other division.
inline void flux(const double* a, const double* b, double nx, double ny, double mu, double gm1,
                 double* f) {
  const double ra = 1.0 / a[0], rb = 1.0 / b[0];
  const double pa = gm1 * (a[3] - 0.5 * ra * (a[1] * a[1] + a[2] * a[2]));
  const double pb = gm1 * (b[3] - 0.5 * rb * (b[1] * b[1] + b[2] * b[2]));
  const double va = ra * (a[1] * nx + a[2] * ny), vb = rb * (b[1] * nx + b[2] * ny);
  f[0] = 0.5 * (va * a[0] + vb * b[0]) + mu * (a[0] - b[0]);
  f[1] = 0.5 * (va * a[1] + pa * nx + vb * b[1] + pb * nx) + mu * (a[1] - b[1]);
  f[2] = 0.5 * (va * a[2] + pa * ny + vb * b[2] + pb * ny) + mu * (a[2] - b[2]);
  f[3] = 0.5 * (va * (a[3] + pa) + vb * (b[3] + pb)) + mu * (a[3] - b[3]);
}

int checked_int(std::int64_t v, const char* what) {
  if (v < 0 || v > std::numeric_limits<int>::max()) {
    throw std::runtime_error(std::string("plain_airfoil: too many ") + what + " for int indices");
  }
  return static_cast<int>(v);
}

}  // namespace

plain_airfoil::plain_airfoil(const funcmesh::mesh& grid, const plain_airfoil_options& options)
    : threads_(1) {
#if defined(_OPENMP)
  threads_ = options.threads > 0 ? options.threads : omp_get_max_threads();
#endif
  const bool f = options.float_constants;
  gam_ = f ? double{1.4f} : 1.4;
  gm1_ = f ? gam_ - 1.0f : gam_ - 1;
  cfl_ = f ? double{0.9f} : 0.9;
  eps_ = f ? double{0.05f} : 0.05;
  const double mach = f ? double{0.4f} : 0.4, p = 1, r = 1;
  const double u = std::sqrt(gam_ * p / r) * mach;
  qinf_[0] = r;
  qinf_[1] = r * u;
  qinf_[2] = 0;
  qinf_[3] = r * (p / (r * gm1_) + 0.5 * u * u);

  if (grid.dimension != 2) throw std::runtime_error("plain_airfoil: needs a 2-D mesh");
  const int ncells = checked_int(grid.cells.size(), "cells");
  checked_int(grid.node_count(), "nodes");
  checked_int(static_cast<std::int64_t>(grid.cells.nodes.size()), "cell nodes");
  std::vector<double> x(grid.coordinates.size()), y(x.size());
  for (std::size_t v = 0; v < x.size(); ++v) {
    x[v] = grid.coordinates[v][0];
    y[v] = grid.coordinates[v][1];
  }
  std::vector<int> offsets(static_cast<std::size_t>(ncells) + 1), nodes;
  for (int c = 0; c < ncells; ++c) {
    for (const std::int64_t v : grid.cells.nodes_of(c)) nodes.push_back(static_cast<int>(v));
    offsets[static_cast<std::size_t>(c) + 1] = static_cast<int>(nodes.size());
  }
  std::vector<double> cx(static_cast<std::size_t>(ncells)), cy(cx.size());
  for (int c = 0; c < ncells; ++c) {
    const int begin = offsets[static_cast<std::size_t>(c)], end = offsets[c + 1u];
    for (int k = begin; k < end; ++k) {
      cx[static_cast<std::size_t>(c)] += x[static_cast<std::size_t>(nodes[k])];
      cy[static_cast<std::size_t>(c)] += y[static_cast<std::size_t>(nodes[k])];
    }
    cx[static_cast<std::size_t>(c)] /= end - begin;
    cy[static_cast<std::size_t>(c)] /= end - begin;
  }

  // Every cell face k -> (k+1) as (low node, high node, cell, position in the cell).
  using side = std::tuple<int, int, int, int>;
  std::vector<side> sides;
  sides.reserve(nodes.size());
  face_offsets_ = offsets;
  cell_faces_.resize(nodes.size());
  for (int c = 0; c < ncells; ++c) {
    const int begin = offsets[static_cast<std::size_t>(c)], end = offsets[c + 1u];
    for (int k = begin; k < end; ++k) {
      const int p = nodes[static_cast<std::size_t>(k)];
      const int q = nodes[static_cast<std::size_t>(k + 1 < end ? k + 1 : begin)];
      const double dx = x[static_cast<std::size_t>(q)] - x[static_cast<std::size_t>(p)];
      const double dy = y[static_cast<std::size_t>(q)] - y[static_cast<std::size_t>(p)];
      cell_faces_[static_cast<std::size_t>(k)] = {dy, -dx, std::sqrt(dx * dx + dy * dy)};
      sides.emplace_back(std::min(p, q), std::max(p, q), c, k);
    }
  }
  std::sort(sides.begin(), sides.end());

  // The normal of face position k of cell c, turned to point away from c.
  auto outward = [&](int c, int k, int p, int q) {
    double nx = cell_faces_[static_cast<std::size_t>(k)][0];
    double ny = cell_faces_[static_cast<std::size_t>(k)][1];
    const double fx = (x[static_cast<std::size_t>(p)] + x[static_cast<std::size_t>(q)]) / 2;
    const double fy = (y[static_cast<std::size_t>(p)] + y[static_cast<std::size_t>(q)]) / 2;
    if ((fx - cx[static_cast<std::size_t>(c)]) * nx + (fy - cy[static_cast<std::size_t>(c)]) * ny <
        0) {
      nx = -nx;
      ny = -ny;
    }
    return std::pair{nx, ny};
  };

  // Boundary elements by their end nodes, with their kind.
  const int wall = grid.physical_id("wall", 1), farfield = grid.physical_id("farfield", 1);
  std::vector<std::tuple<int, int, bool>> tags;
  for (std::int64_t e = 0; e < grid.boundary.size(); ++e) {
    const auto ends = grid.boundary.nodes_of(e);
    const int group = grid.boundary.physical[static_cast<std::size_t>(e)];
    if (ends.size() != 2 || group == 0 || (group != wall && group != farfield)) {
      throw std::runtime_error("plain_airfoil: boundary element " + std::to_string(e) +
                               " is not a line in the group 'wall' or 'farfield'");
    }
    const int p = static_cast<int>(ends[0]), q = static_cast<int>(ends[1]);
    tags.emplace_back(std::min(p, q), std::max(p, q), group == wall);
  }
  std::sort(tags.begin(), tags.end());

  std::vector<std::pair<int, int>> order;  // (first cell's face position, index) per face
  for (std::size_t s = 0; s < sides.size();) {
    const auto [lo, hi, c, k] = sides[s];
    std::size_t same = s + 1;
    while (same < sides.size() && std::get<0>(sides[same]) == lo &&
           std::get<1>(sides[same]) == hi) {
      ++same;
    }
    const int p = nodes[static_cast<std::size_t>(k)];
    const int q = lo == p ? hi : lo;
    const auto [nx, ny] = outward(c, k, p, q);
    if (same - s == 2) {
      order.emplace_back(k, static_cast<int>(interior_.size()));
      interior_.push_back({c, std::get<2>(sides[s + 1]), nx, ny});
    } else if (same - s == 1) {
      const auto tag = std::lower_bound(tags.begin(), tags.end(), std::tuple{lo, hi, false});
      const bool found = tag != tags.end() && std::get<0>(*tag) == lo && std::get<1>(*tag) == hi;
      if (!found) {
        throw std::runtime_error("plain_airfoil: boundary face of cell " + std::to_string(c) +
                                 " has no wall/farfield element");
      }
      boundary_.push_back({c, std::get<2>(*tag), nx, ny});
    } else {
      throw std::runtime_error("plain_airfoil: a face is shared by more than two cells");
    }
    s = same;
  }
  if (boundary_.size() != tags.size()) {
    throw std::runtime_error("plain_airfoil: a boundary element matches no boundary face");
  }
  // Interior faces in the order of their first cell's faces, for locality.
  std::sort(order.begin(), order.end());
  std::vector<interior_face> sorted(interior_.size());
  for (std::size_t f = 0; f < order.size(); ++f) {
    sorted[f] = interior_[static_cast<std::size_t>(order[f].second)];
  }
  interior_ = std::move(sorted);
  std::sort(boundary_.begin(), boundary_.end(),
            [](const boundary_face& a, const boundary_face& b) { return a.cell < b.cell; });

  q_.resize(4 * static_cast<std::size_t>(ncells));
  qold_.resize(q_.size());
  res_.resize(q_.size());
  adt_.resize(static_cast<std::size_t>(ncells));
  reset();
}

void plain_airfoil::reset() {
  const std::int64_t n = cells();
  for (std::int64_t c = 0; c < n; ++c) {
    for (int k = 0; k < 4; ++k) q_[static_cast<std::size_t>(4 * c + k)] = qinf_[k];
  }
  std::fill(res_.begin(), res_.end(), 0.0);
}

void plain_airfoil::compute_adt() {
  const int n = static_cast<int>(cells());
  const double* q = q_.data();
  const int* offsets = face_offsets_.data();
  const std::array<double, 3>* faces = cell_faces_.data();
  double* adt = adt_.data();
  const double gam = gam_, gm1 = gm1_, cfl = cfl_;
#pragma omp parallel for schedule(static) num_threads(threads_) if (threads_ != 1)
  for (int c = 0; c < n; ++c) {
    const double* qc = q + 4 * static_cast<std::int64_t>(c);
    const double ri = 1.0 / qc[0], u = ri * qc[1], v = ri * qc[2];
    const double sound = std::sqrt(gam * gm1 * (ri * qc[3] - 0.5 * (u * u + v * v)));
    double sum = 0;
    for (int k = offsets[c]; k < offsets[c + 1]; ++k) {
      sum += std::abs(u * faces[k][0] + v * faces[k][1]) + sound * faces[k][2];
    }
    adt[c] = sum / cfl;
  }
}

void plain_airfoil::interior_fluxes() {
  const double* q = q_.data();
  const double* adt = adt_.data();
  double* res = res_.data();
  for (const interior_face& f : interior_) {
    const std::int64_t l = f.left, r = f.right;
    const double mu = 0.5 * (adt[l] + adt[r]) * eps_;
    double flux_lr[4];
    flux(q + 4 * l, q + 4 * r, f.nx, f.ny, mu, gm1_, flux_lr);
    for (int k = 0; k < 4; ++k) {
      res[4 * l + k] += flux_lr[k];
      res[4 * r + k] -= flux_lr[k];
    }
  }
}

void plain_airfoil::boundary_fluxes() {
  const double* q = q_.data();
  const double* adt = adt_.data();
  double* res = res_.data();
  for (const boundary_face& f : boundary_) {
    const std::int64_t l = f.cell;
    const double* ql = q + 4 * l;
    if (f.wall) {
      const double ri = 1.0 / ql[0];
      const double p = gm1_ * (ql[3] - 0.5 * ri * (ql[1] * ql[1] + ql[2] * ql[2]));
      res[4 * l + 1] += p * f.nx;
      res[4 * l + 2] += p * f.ny;
    } else {
      double out[4];
      flux(ql, qinf_, f.nx, f.ny, eps_ * adt[l], gm1_, out);
      for (int k = 0; k < 4; ++k) res[4 * l + k] += out[k];
    }
  }
}

double plain_airfoil::update() {
  const int n = static_cast<int>(cells());
  const double* qold = qold_.data();
  const double* adt = adt_.data();
  double* q = q_.data();
  double* res = res_.data();
  double rms = 0;
#pragma omp parallel for schedule(static) reduction(+ : rms) num_threads(threads_) if (threads_ != 1)
  for (int c = 0; c < n; ++c) {
    const double adti = 1.0 / adt[c];
    for (int k = 0; k < 4; ++k) {
      const std::int64_t i = 4 * static_cast<std::int64_t>(c) + k;
      const double del = adti * res[i];
      q[i] = qold[i] - del;
      res[i] = 0;
      rms += del * del;
    }
  }
  return rms;
}

double plain_airfoil::iteration() {
  const std::int64_t n = static_cast<std::int64_t>(q_.size());
  const double* q = q_.data();
  double* qold = qold_.data();
#pragma omp parallel for schedule(static) num_threads(threads_) if (threads_ != 1)
  for (std::int64_t i = 0; i < n; ++i) qold[i] = q[i];
  double rms = 0;
  for (int stage = 0; stage < 2; ++stage) {
    compute_adt();
    interior_fluxes();
    boundary_fluxes();
    rms = update();
  }
  return std::sqrt(rms / static_cast<double>(cells()));
}

plain_airfoil_result run_plain_airfoil(const funcmesh::mesh& grid, int iterations, std::FILE* print,
                                       const plain_airfoil_options& options) {
  plain_airfoil solver(grid, options);
  plain_airfoil_result result;
  const auto start = std::chrono::steady_clock::now();
  for (int iter = 1; iter <= iterations; ++iter) {
    const double rms = solver.iteration();
    if (iter % 100 == 0) {
      result.rms.emplace_back(iter, rms);
      if (print != nullptr) {
        std::fprintf(print, options.precise ? "%d %.12e\n" : "%d %10.5e\n", iter, rms);
        std::fflush(print);
      }
    }
  }
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  result.seconds_per_iteration = iterations > 0 ? elapsed.count() / iterations : 0;
  return result;
}
