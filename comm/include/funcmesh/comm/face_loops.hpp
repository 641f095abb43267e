// Face loops over distributed grid functions: gather_faces (out = sum_over_faces(...),
// each owned cell sums its faces in a fixed global order: reproducible for any rank count)
// and scatter_faces (one pass over the faces adding each flux to both cells: in face order
// on one thread, coloured blocks of faces on several, atomic adds on a device; not
// reproducible across rank counts). Both run on the default executor (serial, OpenMP, or
// CUDA from a .cu file).
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/comm/face_flux_field.hpp>
#include <funcmesh/comm/face_sum.hpp>
#include <funcmesh/exec/dispatch.hpp>
#include <funcmesh/expr/assign.hpp>
#include <funcmesh/faces/detail/atomic_add.hpp>
#include <funcmesh/faces/face_set.hpp>

namespace funcmesh {

namespace detail {

// Checks a face loop's arguments (out is not u; both on one layout) and resolves the
// boundary fluxes' physical ids. Every fact it checks is alike on every rank (the layout's
// face set agreed at its construction that every part's boundary is tagged), so every rank
// throws alike, with no message.
std::vector<int> prepare_face_loop(const halo_state& out, const halo_state& u,
                                   const std::vector<std::string>& names, const char* call);
// For a face set other than the layout's own: agrees over the layout that every rank's
// has the counts of its local mesh and a tagged boundary (a collective), so that a wrong
// one fails every rank alike. The layout's own face set needs no check (and no message).
void check_face_set(const face_set& faces, const distributed_layout& layout, const char* call);

// The scatter form's faces: run(begin, end) adds faces [begin, end) to their owned cells
// in order on one thread (race-free when no other thread writes those cells: one thread,
// or coloured blocks); atomic(f) adds face f with atomic adds (CUDA, every face at once).
template <class V, class Input, class Fluxes>
struct scatter_faces_body {
  view<V> out;
  Input input;
  face_set_view faces;
  Fluxes fluxes;
  index_t owned;

  // Faces follow the cells, so consecutive faces mostly share their first cell: its sum
  // stays in a register until that cell changes, instead of a load-add-store chain through
  // memory from one face to the next (which bounds a cheap flux's loop).
  FUNCMESH_DEVICE void run(index_t begin, index_t end) const {
    index_t pending = -1;
    V sum{};
    for (index_t f = begin; f < end; ++f) {
      const vec<face_index, 2> two = faces.face_cells[f];
      face_view v = faces.face(f);
      const index_t l = two[0], r = two[1];
      if (l != pending) {
        if (pending >= 0 && pending < owned) out[pending] = out[pending] + sum;
        pending = l;
        sum = V{};
      }
      if (r < 0) {
        sum = sum + fluxes.on_boundary(v.physical, input[l], v);
        continue;
      }
      const auto left = input[l];
      const auto right = input[r];
      if constexpr (Fluxes::antisymmetric) {
        const V through = fluxes.interior(left, right, v);  // evaluated once
        if (l < owned) sum = sum + through;
        if (r < owned) out[r] = out[r] - through;
      } else {
        if (l < owned) sum = sum + fluxes.interior(left, right, v);
        if (r < owned) {
          for (int d = 0; d < 3; ++d) v.normal[d] = -v.normal[d];
          out[r] = out[r] + fluxes.interior(right, left, v);
        }
      }
    }
    if (pending >= 0 && pending < owned) out[pending] = out[pending] + sum;
  }

  FUNCMESH_DEVICE void atomic(index_t f) const {
    const vec<face_index, 2> two = faces.face_cells[f];
    face_view v = faces.face(f);
    const index_t l = two[0], r = two[1];
    if (r < 0) {
      atomic_add(out[l], fluxes.on_boundary(v.physical, input[l], v));
      return;
    }
    const auto left = input[l];
    const auto right = input[r];
    if constexpr (Fluxes::antisymmetric) {
      const V through = fluxes.interior(left, right, v);
      if (l < owned) atomic_add(out[l], through);
      if (r < owned) atomic_add(out[r], -through);
    } else {
      if (l < owned) atomic_add(out[l], fluxes.interior(left, right, v));
      if (r < owned) {
        for (int d = 0; d < 3; ++d) v.normal[d] = -v.normal[d];
        atomic_add(out[r], fluxes.interior(right, left, v));
      }
    }
  }
};

// Element i of a colour's loop: block faces.blocks[i], its faces in order on one thread.
template <class Body>
struct scatter_block {
  Body body;

  FUNCMESH_DEVICE void operator()(index_t i) const {
    const Body local = body;  // a copy: stores through `out` cannot change its scalars
    const index_t b = local.faces.blocks[i];
    local.run(local.faces.block_offsets[b], local.faces.block_offsets[b + 1]);
  }
};

// Every face in order, as one element: the single-thread form (all blocks in order).
template <class Body>
struct scatter_all {
  Body body;
  index_t count;

  FUNCMESH_DEVICE void operator()(index_t) const {
    const Body local = body;
    local.run(0, count);
  }
};

// The simulated device's run of the device form: every face in order on this thread,
// counted as one launch, profiled as for_each would.
template <class Body>
[[gnu::noinline]] void scatter_atomic_on_host(const Body& body, index_t count, const executor& on,
                                              const exec::loop_label& label) {
  if (count <= 0) return;
  exec::detail::count_device_loop(on, label, false);
  std::optional<profile::scope> profiled;
  if (profile::active()) profiled.emplace(label);
  for (index_t f = 0; f < count; ++f) body.atomic(f);
}

// Element f: face f, added atomically (CUDA).
template <class Body>
struct scatter_atomic {
  Body body;

  FUNCMESH_DEVICE void operator()(index_t f) const { body.atomic(f); }
};

// The gather form in two passes, for an antisymmetric flux: every face's flux once into the
// layout's scratch, then each owned cell's sum of them in the fixed order.
template <class Compiler, class T, class S, class Flux, class... B>
void gather_faces_once(dist_function<T, cells>& out, const dist_function<S, cells>& u,
                       const Flux& flux, const boundary_flux<B>&... boundary) {
  detail::prepare_face_loop(out.halo_status(), u.halo_status(), detail::names_of(boundary...),
                            "funcmesh::gather_faces");
  face_flux_field<T> through(u.layout(), detail::face_flux_scratch(u.layout(), sizeof(T)),
                             "gather_faces' fluxes");
  through.template evaluate<Compiler>(u, flux, boundary...);
  out.template assign<flux_field_sum_expr<T>, Compiler>(sum_over_faces(through));
}

}  // namespace detail

// out = sum_over_faces(layout.faces(), flux, u, b...) on the owned cells of u's layout:
// u's halo is exchanged first when dirty, overlapped with the owned-interior cells.
// With antisymmetric(flux), every face's flux is evaluated once (into the face set's
// scratch, one value per face), then each owned cell sums its faces' in the same fixed
// order, subtracting where it is the face's second cell: still the same bits on any rank
// count, and the same bits as the one-pass form for a flux that is exactly antisymmetric
// in floating point (Airfoil's is); the halo is then exchanged before, not overlapped.
// Collective over the layout.
template <class Compiler = exec::this_compiler, class T, class S, class Flux, class... B>
void gather_faces(dist_function<T, cells>& out, const dist_function<S, cells>& u, const Flux& flux,
                  const boundary_flux<B>&... boundary) {
  if constexpr (is_antisymmetric_v<Flux>) {
    detail::gather_faces_once<Compiler>(out, u, flux, boundary...);
  } else {
    detail::prepare_face_loop(out.halo_status(), u.halo_status(), detail::names_of(boundary...),
                              "funcmesh::gather_faces");
    const face_set& faces = u.layout().faces();
    out.template assign<decltype(sum_over_faces(faces, flux, u, boundary...)), Compiler>(
        sum_over_faces(faces, flux, u, boundary...));
  }
}

// The same sums as gather_faces by one pass over the faces: each face adds its flux to
// both of its cells (only owned cells are written; a face between an owned and a halo
// cell is evaluated here for the owned side only). On one host thread the faces run in
// face order; on several, colour after colour, each colour's blocks of consecutive faces
// shared among the threads (face_set::blocks); on CUDA all faces at once with atomic adds
// when the values are double or vec<double, N>, else one thread per block, colour after
// colour. The order of additions depends on the local face numbering (and on CUDA on
// timing), so results are NOT bitwise identical across rank counts (they agree with
// gather_faces to rounding). Collective over the layout. `faces`: the layout's own face
// set, or another of its local mesh (other scatter blocks, face_set(layout.mesh(), n):
// checked with one agreement per call).
template <class Compiler = exec::this_compiler, class T, class S, class Flux, class... B>
void scatter_faces(dist_function<T, cells>& out, const dist_function<S, cells>& u,
                   const face_set& faces, const Flux& flux, const boundary_flux<B>&... boundary) {
  const std::vector<int> ids = detail::prepare_face_loop(
      out.halo_status(), u.halo_status(), detail::names_of(boundary...), "funcmesh::scatter_faces");
  detail::check_face_set(faces, u.layout(), "funcmesh::scatter_faces");
  const executor on = default_executor<Compiler>();
  u.exchange(on);
  const auto fluxes = detail::make_face_fluxes<S>(flux, ids, boundary...);
  using fluxes_type = std::remove_cvref_t<decltype(fluxes)>;
  run<Compiler>(run_options{.on = on}, set(out.local_values(), pure(T{})));

  const executor chosen = exec::effective_executor(on, fluxes_type::serial_only);
  token holder;
  binder b(chosen.space(), holder);
  auto* target = static_cast<T*>(b.bind_target(out.local_values(), false));
  auto input = as_node(u.local_values()).bind_to(b);
  const view<T> values(target, out.local_values().total_size());
  const detail::scatter_faces_body<T, decltype(input), fluxes_type> body{
      values, input, faces.bind_to(chosen.space(), holder), fluxes, faces.owned_count()};
  // Each face reads two values and writes up to two: about a cell's worth of work.
  constexpr index_t face_work = 2 * (fluxes_type::work + 6);
  const exec::loop_label label{"scatter_faces into", &out.local_values().name(), 1};
  const index_t count = faces.size();

  // The device form: every face at once, atomic adds. The simulated device runs the same
  // body on the host (host atomics, faces in order), so its code is tested without a GPU;
  // host-compiled code runs it in a plain loop, not through for_each, whose OpenMP
  // instantiation of it would cost the host's own face loops their code layout (measured:
  // gather_faces 8% slower in bench/halo).
  if constexpr (detail::has_atomic_add_v<T>) {
    if (chosen.on_device()) {
      if constexpr (std::is_same_v<Compiler, exec::nvcc_compiler>) {
        exec::for_each<Compiler>(chosen, 0, count, detail::scatter_atomic<decltype(body)>{body},
                                 exec::loop_shape{fluxes_type::serial_only, face_work}, label);
      } else {
        detail::scatter_atomic_on_host(body, count, chosen, label);
      }
      out.local_values().mark_written();
      return;
    }
  }
  const bool host = !chosen.on_device();
  if (host && (chosen.kind() == executor_kind::serial ||
               exec::threads_for(count, fluxes_type::serial_only, face_work) <= 1)) {
    // One thread: all blocks in order are all faces in order, in one pass.
    exec::for_each<Compiler>(executor::serial(), 0, 1,
                             detail::scatter_all<decltype(body)>{body, count},
                             exec::loop_shape{true, face_work * count}, label);
  } else {
    const face_block_colouring& blocks = faces.blocks();
    const index_t per_block =
        blocks.block_count() > 0 ? (count + blocks.block_count() - 1) / blocks.block_count() : 1;
    const exec::loop_shape shape{fluxes_type::serial_only, face_work * per_block};
    const detail::scatter_block<decltype(body)> blocks_body{body};
    for (int k = 0; k < blocks.colour_count(); ++k) {
      exec::for_each<Compiler>(chosen, blocks.colour_offsets[static_cast<std::size_t>(k)],
                               blocks.colour_offsets[static_cast<std::size_t>(k) + 1], blocks_body,
                               shape, label);
    }
  }
  out.local_values().mark_written();
}

template <class Compiler = exec::this_compiler, class T, class S, class Flux, class... B>
void scatter_faces(dist_function<T, cells>& out, const dist_function<S, cells>& u, const Flux& flux,
                   const boundary_flux<B>&... boundary) {
  scatter_faces<Compiler>(out, u, u.layout().faces(), flux, boundary...);
}

}  // namespace funcmesh
