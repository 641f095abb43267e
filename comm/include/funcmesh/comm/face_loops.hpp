// Face loops on a local mesh: the gather form (each owned cell sums its faces' fluxes in a
// fixed global order: race-free and bitwise identical for any rank count) and the scatter
// form (one loop over faces, race-free by face colouring; not reproducible across ranks).
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/core/error.hpp>
#include <funcmesh/core/index.hpp>
#include <funcmesh/core/vec.hpp>
#include <funcmesh/partition/local_mesh.hpp>

namespace funcmesh {

// What a flux function sees of a face, from the cell whose value comes first: the unit
// normal points out of that cell; distance is between the two cell centroids (cell
// centroid to face centroid on the domain boundary); physical is 0 off the boundary.
struct face_view {
  double area = 0;
  vec<double, 3> normal{{0, 0, 0}};
  double distance = 0;
  int physical = 0;
};

// The faces of a local mesh that touch an owned cell, oriented globally: cells[f][0] has
// the lower global cell id (the owned cell on the domain boundary), the normal points out
// of it, and the geometry is computed from the face's nodes rotated to start at the lowest
// global node id, so every rank computes every face bit for bit alike. Built once per
// local mesh; no MPI.
class face_set {
 public:
  explicit face_set(const local_mesh& m);

  index_t size() const { return static_cast<index_t>(kind.size()); }
  index_t owned_count() const { return owned_count_; }
  face_view view(index_t f) const { return views[static_cast<std::size_t>(f)]; }
  // The faces of owned cell c in gather order: neighbours by ascending global cell id,
  // then domain-boundary faces by physical id and global node ids.
  std::span<const index_t> faces_of(index_t c) const {
    const auto b = static_cast<std::size_t>(cell_offsets[static_cast<std::size_t>(c)]);
    const auto e = static_cast<std::size_t>(cell_offsets[static_cast<std::size_t>(c) + 1]);
    return {cell_faces.data() + b, e - b};
  }
  // The physical id of the boundary group `name` (dimension - 1), or 0.
  int physical_id(const std::string& name) const;
  std::string physical_name(int id) const;
  // Every boundary group of the global mesh: each needs a boundary flux.
  const std::vector<std::pair<int, std::string>>& boundary_groups() const { return groups_; }

  std::vector<std::array<index_t, 2>> cells;  // local cells; [1] == -1 on the domain boundary
  std::vector<face_kind> kind;                // interior, partition or domain boundary
  std::vector<face_view> views;               // oriented out of cells[f][0]
  std::vector<index_t> cell_offsets{0}, cell_faces;  // CSR over owned cells, gather order
  // Faces grouped by colour: no two faces of one colour share an owned cell.
  std::vector<index_t> colour_offsets{0}, colour_faces;

 private:
  index_t owned_count_ = 0;
  std::vector<std::pair<int, std::string>> groups_;
};

// on("left", f): the boundary flux f(u_cell, face_view) on the faces of group "left".
template <class F>
struct boundary_flux {
  std::string name;
  F flux;
};
template <class F>
boundary_flux<F> on(std::string name, F flux) {
  return {std::move(name), std::move(flux)};
}

namespace detail {

// Per physical id, the index of its boundary flux in the pack. Throws (on every rank
// alike: only the global group list is consulted) when a group has no flux or a name
// matches no group.
// Checks a face loop's arguments (out is not u; both and the face set describe the same
// local mesh) and resolves the boundary fluxes, then agrees on the outcome over u's ranks,
// so a problem on one rank (an untagged face in its part) fails every rank alike.
std::vector<int> prepare_face_loop(const dist_function<double>& out, const dist_function<double>& u,
                                   const face_set& faces, const std::vector<std::string>& names,
                                   const char* call);

std::vector<int> resolve_boundary(const face_set& faces, const std::vector<std::string>& names,
                                  const char* call);

template <class Tuple, std::size_t... I>
double call_boundary(const Tuple& fluxes, int which, double u, const face_view& f,
                     std::index_sequence<I...>) {
  double r = 0;
  ((static_cast<int>(I) == which ? (r = std::get<I>(fluxes).flux(u, f), 0) : 0), ...);
  return r;
}

inline face_view flipped(face_view f) {
  for (int k = 0; k < 3; ++k) f.normal[k] = -f.normal[k];  // exact: rank independence holds
  return f;
}

}  // namespace detail

// Convention (the heat sketch's): flux(u_self, u_other, f) is what the face adds to the
// cell holding u_self, with f.normal out of that cell; a boundary flux b(u_self, f) the
// same on a domain-boundary face. out = that sum over the owned cells (halo untouched).
// Gather form: each owned cell sums its faces in face_set's global order, so in
// reproducible mode the result is bitwise identical for any rank count. Collective
// (u's halo is exchanged when stale). Runs on the host (OpenMP over owned cells);
// device execution is not offered yet.
template <class Flux, class... B>
void gather_faces(dist_function<double>& out, dist_function<double>& u, const face_set& faces,
                  const Flux& flux, const boundary_flux<B>&... boundary) {
  const std::vector<int> which =
      detail::prepare_face_loop(out, u, faces, {boundary.name...}, "funcmesh::gather_faces");
  u.exchange();
  const auto fluxes = std::forward_as_tuple(boundary...);
  auto values = u.local().read();
  auto result = out.local().write();
  const index_t owned = faces.owned_count();
#if defined(_OPENMP)
#pragma omp parallel for schedule(static)
#endif
  for (index_t c = 0; c < owned; ++c) {
    double sum = 0;
    for (const index_t f : faces.faces_of(c)) {
      const auto& two = faces.cells[static_cast<std::size_t>(f)];
      const face_view& v = faces.views[static_cast<std::size_t>(f)];
      if (two[1] < 0) {
        sum += detail::call_boundary(fluxes, which[static_cast<std::size_t>(v.physical)], values[c],
                                     v, std::index_sequence_for<B...>{});
      } else if (two[0] == c) {
        sum += flux(values[c], values[two[1]], v);
      } else {
        sum += flux(values[c], values[two[0]], detail::flipped(v));
      }
    }
    result[c] = sum;
  }
}

// Scatter form: one pass over the faces adding each face's two contributions (the same
// flux calls as the gather form) to its owned cells only, colour group after colour
// group, each group in parallel: race-free, but the order of additions depends on the
// local face numbering, so results are NOT bitwise identical across rank counts (they
// agree with gather_faces to rounding). Collective like gather_faces; host only.
template <class Flux, class... B>
void scatter_faces(dist_function<double>& out, dist_function<double>& u, const face_set& faces,
                   const Flux& flux, const boundary_flux<B>&... boundary) {
  const std::vector<int> which =
      detail::prepare_face_loop(out, u, faces, {boundary.name...}, "funcmesh::scatter_faces");
  u.exchange();
  const auto fluxes = std::forward_as_tuple(boundary...);
  auto values = u.local().read();
  auto result = out.local().write();
  const index_t owned = faces.owned_count();
  for (index_t c = 0; c < owned; ++c) result[c] = 0;
  const auto colours = static_cast<index_t>(faces.colour_offsets.size()) - 1;
  for (index_t k = 0; k < colours; ++k) {
    const index_t begin = faces.colour_offsets[static_cast<std::size_t>(k)];
    const index_t end = faces.colour_offsets[static_cast<std::size_t>(k) + 1];
#if defined(_OPENMP)
#pragma omp parallel for schedule(static)
#endif
    for (index_t i = begin; i < end; ++i) {
      const index_t f = faces.colour_faces[static_cast<std::size_t>(i)];
      const auto& two = faces.cells[static_cast<std::size_t>(f)];
      const face_view& v = faces.views[static_cast<std::size_t>(f)];
      const index_t l = two[0], r = two[1];
      if (r < 0) {
        result[l] += detail::call_boundary(fluxes, which[static_cast<std::size_t>(v.physical)],
                                           values[l], v, std::index_sequence_for<B...>{});
        continue;
      }
      if (l < owned) result[l] += flux(values[l], values[r], v);
      if (r < owned) result[r] += flux(values[r], values[l], detail::flipped(v));
    }
  }
}

}  // namespace funcmesh
