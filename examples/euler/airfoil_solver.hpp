// The Airfoil algorithm (compressible Euler flow past NACA0012, the classic unstructured
// finite-volume benchmark) on funcmesh: face loops for the fluxes, expressions for the
// update, a global sum for the residual. Shared by examples/euler and bench/euler.
#pragma once

#include <cmath>
#include <optional>
#include <string>

#include <funcmesh/comm.hpp>

namespace airfoil {

namespace fm = funcmesh;
using state = fm::vec<double, 4>;  // rho, rho u, rho v, rho E
// The algorithm's constants. The spec's decimals by default; the classic code declared
// them as float literals stored in doubles (1.4f, ...), which the published residuals
// (1.060114637578e-04 at iteration 1000) were computed with.
struct constants {
  double gam = 1.4;
  double gm1 = 0.4;
  double cfl = 0.9;
  double eps = 0.05;
  double mach = 0.4;

  static constants exact() {
    constants k;
    k.gm1 = k.gam - 1.0;
    return k;
  }
  static constants classic_float() {
    constants k;
    k.gam = double{1.4f};
    k.gm1 = k.gam - 1.0;
    k.cfl = double{0.9f};
    k.eps = double{0.05f};
    k.mach = double{0.4f};
    return k;
  }
};

// What a face reads of a cell: its state and adt. Both face forms evaluate each face's flux
// once (the gather form through the face sum's windows: antisymmetric flux), so the pressure
// and 1 / rho are computed there, as the plain code does: storing them per cell was
// measured no faster, and costs 16 bytes a cell.
using cell_data = fm::vec<double, 5>;

// 1 / rho and the pressure of a cell's data.
FUNCMESH_DEVICE inline double inverse_density(const cell_data& c) { return 1.0 / c[0]; }
FUNCMESH_DEVICE inline double pressure_of(const cell_data& c, double ri, double gm1) {
  return gm1 * (c[3] - 0.5 * ri * (c[1] * c[1] + c[2] * c[2]));
}

// The free stream: p = 1, r = 1, u = sqrt(gam p / r) mach.
inline state free_stream(const constants& k) {
  const double p = 1, r = 1;
  const double u = std::sqrt(k.gam * p / r) * k.mach;
  const double e = p / (r * k.gm1) + 0.5 * u * u;
  return state{{r, r * u, 0.0, r * e}};
}

// Named functors rather than lambdas: the same source compiles for the host and for CUDA.
struct with_adt {
  FUNCMESH_DEVICE cell_data operator()(const state& q, double adt) const {
    return cell_data{{q[0], q[1], q[2], q[3], adt}};
  }
};
// A cell's velocity and speed of sound (u, v, c), computed once per cell...
struct velocity_and_sound {
  double gam, gm1;
  FUNCMESH_DEVICE fm::vec<double, 3> operator()(const state& q) const {
    const double ri = 1.0 / q[0];
    const double u = ri * q[1], v = ri * q[2];
    return fm::vec<double, 3>{{u, v, std::sqrt(gam * gm1 * (ri * q[3] - 0.5 * (u * u + v * v)))}};
  }
};
// ...and one face's share of its adt: |u nx + v ny| + c |n|, n the area-weighted normal.
struct adt_term {
  FUNCMESH_DEVICE double operator()(const fm::vec<double, 3>& uvc, const fm::face_view& f) const {
    const double nx = f.normal[0] * f.area, ny = f.normal[1] * f.area;
    return std::fabs(uvc[0] * nx + uvc[1] * ny) + uvc[2] * f.area;
  }
};

// The interior flux out of cell l (n pointing from l to r). Each cell's half is summed
// before the two are combined, so evaluating it from r's side gives exactly the negation.
struct interior_flux {
  double gm1, eps;
  FUNCMESH_DEVICE state operator()(const cell_data& l, const cell_data& r,
                                   const fm::face_view& f) const {
    const double nx = f.normal[0] * f.area, ny = f.normal[1] * f.area;
    const double ri1 = inverse_density(l), ri2 = inverse_density(r);
    const double p1 = pressure_of(l, ri1, gm1), vol1 = ri1 * (l[1] * nx + l[2] * ny);
    const double p2 = pressure_of(r, ri2, gm1), vol2 = ri2 * (r[1] * nx + r[2] * ny);
    const double mu = 0.5 * (l[4] + r[4]) * eps;
    return state{{0.5 * (vol1 * l[0] + vol2 * r[0]) + mu * (l[0] - r[0]),
                  0.5 * ((vol1 * l[1] + p1 * nx) + (vol2 * r[1] + p2 * nx)) + mu * (l[1] - r[1]),
                  0.5 * ((vol1 * l[2] + p1 * ny) + (vol2 * r[2] + p2 * ny)) + mu * (l[2] - r[2]),
                  0.5 * (vol1 * (l[3] + p1) + vol2 * (r[3] + p2)) + mu * (l[3] - r[3])}};
  }
};

// Wall: the pressure force only.
struct wall_flux {
  double gm1;
  FUNCMESH_DEVICE state operator()(const cell_data& l, const fm::face_view& f) const {
    const double p = pressure_of(l, inverse_density(l), gm1);
    return state{{0.0, p * f.normal[0] * f.area, p * f.normal[1] * f.area, 0.0}};
  }
};

// Far field: the interior flux against the free stream, with mu = eps adt_l.
struct farfield_flux {
  state qinf;
  interior_flux interior;
  FUNCMESH_DEVICE state operator()(const cell_data& l, const fm::face_view& f) const {
    return interior(l, with_adt{}(qinf, l[4]), f);
  }
};

// The update del = res / adt, as the classic code computes it (one division: 1 / adt).
struct updated {
  FUNCMESH_DEVICE state operator()(const state& qold, const state& res, double adt) const {
    const double adti = 1.0 / adt;
    return state{{qold[0] - adti * res[0], qold[1] - adti * res[1], qold[2] - adti * res[2],
                  qold[3] - adti * res[3]}};
  }
};
// sum over the components of del^2: a cell's contribution to rms.
struct squared_change {
  FUNCMESH_DEVICE double operator()(const state& res, double adt) const {
    const double adti = 1.0 / adt;
    double s = 0;
    for (int k = 0; k < 4; ++k) {
      const double d = adti * res[k];
      s += d * d;
    }
    return s;
  }
};

// The pressure of a state, for output.
struct pressure {
  double gm1;
  FUNCMESH_DEVICE double operator()(const state& q) const {
    return gm1 * (q[3] - 0.5 * (q[1] * q[1] + q[2] * q[2]) / q[0]);
  }
};

enum class face_form { gather, scatter };

// A cell's adt: the sum over its faces of |u.n| + c |n|, over cfl. It reads only the cell's
// own state, so it is computed on the halo cells too (fm::with_halo()): the faces then read
// q and adt at neighbours with no round of their own, and a stage exchanges q alone, once
// (one message per neighbour), overlapped with adt on the owned cells.
inline auto adt_of(const fm::distributed_layout& layout, const constants& k,
                   const fm::dist_function<state>& q) {
  return fm::sum_over_cell_faces(layout, adt_term{},
                                 fm::zip_with(velocity_and_sound{k.gam, k.gm1}, q)) /
         k.cfl;
}

// The solver's fields on one distributed layout. q starts at the free stream. The layout's
// faces are built first, before the fields exist: the set-up's temporaries and the fields
// are never held at once (the peak memory is the steady one).
class solver {
 public:
  solver(const fm::distributed_layout& layout, face_form form, constants k = constants::exact())
      : k_(k),
        layout_(layout),
        faces_(&layout.prepare_faces(fm::face_geometry::minimal())),
        form_(form),
        q_(layout, "q"),
        stage_(layout, "q_stage"),
        adt_(layout, "adt") {
    if (form == face_form::scatter) {
      res_.emplace(layout, "res");
      cell_data_.emplace(layout, "q_adt");
    }
    q_ = free_stream(k_);
  }

  // One Airfoil iteration; returns sqrt(rms / cells) of its second update when asked
  // (a global sum: collective), else 0. The first stage goes from q into stage_, the
  // second from stage_ back into q: q stays the iteration's old state until its last
  // update, so the classic code's copy into qold is not needed. (Computing the next adt
  // inside the update's loop was measured: 18% slower than its own pass.)
  double iterate(bool want_rms) {
    double rms = 0;
    for (int k = 0; k < 2; ++k) {
      const fm::dist_function<state>& from = k == 0 ? q_ : stage_;
      fm::dist_function<state>& to = k == 0 ? stage_ : q_;
      cell_terms(from);
      const interior_flux interior{k_.gm1, k_.eps};
      const farfield_flux far{free_stream(k_), interior};
      const wall_flux wall{k_.gm1};
      if (form_ == face_form::gather) {
        // Each cell's sum of its faces' fluxes, in the fixed order, read by the update
        // itself: no flux or residual is stored. The interior flux is exactly
        // antisymmetric, so on the host each face is evaluated once (the face set's
        // per-worker windows), with the bits of evaluating it from both sides.
        const auto res = fm::sum_over_faces(layout_, fm::antisymmetric(interior),
                                            fm::zip_with(with_adt{}, from, adt_),
                                            fm::on("wall", wall), fm::on("farfield", far));
        if (want_rms && k == 1) rms = residual(res);
        to = fm::zip_with(updated{}, q_, res, adt_);
      } else {
        fm::scatter_faces(*res_, *cell_data_, fm::antisymmetric(interior), fm::on("wall", wall),
                          fm::on("farfield", far));
        if (want_rms && k == 1) rms = residual(*res_);
        to = fm::zip_with(updated{}, q_, *res_, adt_);
      }
    }
    return want_rms ? std::sqrt(rms / static_cast<double>(layout_.global_cells())) : 0.0;
  }

  const fm::dist_function<state>& q() const { return q_; }
  // Writable for a restart, which reads q back: q alone is the state between iterations
  // (adt and the stage are recomputed from it).
  fm::dist_function<state>& q() { return q_; }
  const constants& settings() const { return k_; }
  const fm::face_set& faces() const { return *faces_; }

 private:
  // adt of q on owned and halo cells (and for the scatter form, which takes one function,
  // the cells' data q and adt in one more statement of the same loop): their halos are
  // then clean, and q's is too (this loop's round refreshed it).
  void cell_terms(const fm::dist_function<state>& q) {
    if (form_ == face_form::gather) {
      fm::run(fm::with_halo(), fm::set(adt_, adt_of(layout_, k_, q)));
    } else {
      fm::run(fm::with_halo(), fm::set(adt_, adt_of(layout_, k_, q)),
              fm::set(*cell_data_, fm::zip_with(with_adt{}, q, adt_)));
    }
  }

  // Reproducible: the same bits on any rank count (with the gather form).
  template <class Res>
  double residual(const Res& res) const {
    return fm::global_sum(fm::zip_with(squared_change{}, res, adt_), {.reproducible = true});
  }

  constants k_;
  fm::distributed_layout layout_;
  const fm::face_set* faces_;
  face_form form_;
  fm::dist_function<state> q_, stage_;
  fm::dist_function<double> adt_;
  std::optional<fm::dist_function<state>> res_;            // scatter
  std::optional<fm::dist_function<cell_data>> cell_data_;  // scatter
};

}  // namespace airfoil
