// Face loops over distributed grid functions: gather_faces (out = sum_over_faces(...),
// each owned cell sums its faces in a fixed global order: reproducible for any rank count)
// and scatter_faces (one pass over the faces adding each flux to both cells, colour group
// after colour group: race-free, not reproducible across rank counts). Both run on the
// default executor (serial, OpenMP, or CUDA from a .cu file).
#pragma once

#include <string>
#include <vector>

#include <mpi.h>

#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/face_set.hpp>
#include <funcmesh/comm/face_sum.hpp>
#include <funcmesh/exec/dispatch.hpp>
#include <funcmesh/expr/assign.hpp>

namespace funcmesh {

namespace detail {

// Checks a face loop's arguments (out is not u; both and the face set describe the same
// local mesh) and resolves the boundary fluxes' physical ids, then agrees on the outcome
// over `comm`, so that a problem on one rank (an untagged face in its part) fails every
// rank alike.
std::vector<int> prepare_face_loop(const grid_function_base& out, const grid_function_base& u,
                                   MPI_Comm comm, const face_set& faces,
                                   const std::vector<std::string>& names, const char* call);

// One colour group of the scatter form: no two of its faces share an owned cell.
template <class V, class Input, class Fluxes>
struct scatter_colour {
  view<V> out;
  Input input;
  face_set_view faces;
  Fluxes fluxes;
  index_t owned;

  FUNCMESH_DEVICE void operator()(index_t i) const {
    const vec<index_t, 2> two = faces.colour_cells[i];
    face_view v = faces.coloured(i);
    const index_t l = two[0], r = two[1];
    if (r < 0) {
      out[l] = out[l] + fluxes.on_boundary(v.physical, input[l], v);
      return;
    }
    const auto left = input[l];
    const auto right = input[r];
    if (l < owned) out[l] = out[l] + fluxes.interior(left, right, v);
    if (r < owned) {
      for (int d = 0; d < 3; ++d) v.normal[d] = -v.normal[d];
      out[r] = out[r] + fluxes.interior(right, left, v);
    }
  }
};

}  // namespace detail

// out = sum_over_faces(faces, flux, u, b...) on the owned cells: u's halo is exchanged
// first when stale, overlapped with the owned-interior cells. Collective over u's ranks.
template <class Compiler = exec::this_compiler, class T, class S, class Flux, class... B>
void gather_faces(dist_function<T, cells>& out, dist_function<S, cells>& u, const face_set& faces,
                  const Flux& flux, const boundary_flux<B>&... boundary) {
  detail::prepare_face_loop(out.local(), u.local(), u.plan().comm(), faces,
                            detail::names_of(boundary...), "funcmesh::gather_faces");
  out.template assign<decltype(sum_over_faces(faces, flux, u, boundary...)), Compiler>(
      sum_over_faces(faces, flux, u, boundary...));
}

// The same sums as gather_faces by one pass over the faces: each face adds its flux to
// both of its cells (only owned cells are written; a face between an owned and a halo
// cell is evaluated here for the owned side only), colour group after colour group, each
// group in parallel on the executor. The order of additions depends on the local face
// numbering, so results are NOT bitwise identical across rank counts (they agree with
// gather_faces to rounding). Collective over u's ranks.
template <class Compiler = exec::this_compiler, class T, class S, class Flux, class... B>
void scatter_faces(dist_function<T, cells>& out, dist_function<S, cells>& u, const face_set& faces,
                   const Flux& flux, const boundary_flux<B>&... boundary) {
  const std::vector<int> ids =
      detail::prepare_face_loop(out.local(), u.local(), u.plan().comm(), faces,
                                detail::names_of(boundary...), "funcmesh::scatter_faces");
  const executor on = default_executor();
  u.exchange(on);
  const auto fluxes = detail::make_face_fluxes<S>(flux, ids, boundary...);
  using fluxes_type = std::remove_cvref_t<decltype(fluxes)>;
  run<Compiler>(run_options{.on = on}, set(out.local(), pure(T{})));

  const executor chosen = exec::effective_executor(on, fluxes_type::serial_only);
  token holder;
  binder b(chosen.space(), holder);
  auto* target = static_cast<T*>(b.bind_target(out.local(), false));
  auto input = as_node(u.local()).bind(b);
  const detail::scatter_colour<T, decltype(input), fluxes_type> body{
      view<T>(target, out.local().total_size()), input, faces.bind(chosen.space(), holder), fluxes,
      faces.owned_count()};
  // Each face reads two values and writes up to two: about a cell's worth of work.
  constexpr exec::loop_shape shape{fluxes_type::serial_only, 2 * (fluxes_type::work + 6)};
  const exec::loop_label label{"scatter_faces into", &out.local().name(), 1};
  const auto colours = faces.colour_offsets.size() - 1;
  for (std::size_t k = 0; k < colours; ++k) {
    exec::for_each<Compiler>(chosen, faces.colour_offsets[k], faces.colour_offsets[k + 1], body,
                             shape, label);
  }
  out.local().mark_written();
}

}  // namespace funcmesh
