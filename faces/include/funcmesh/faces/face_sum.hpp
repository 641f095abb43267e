// sum_over_faces(faces, flux, u, on("left", b), ...): a cells expression whose value at an
// owned cell is the sum of its faces' fluxes, in face_set's fixed global order (the gather
// form: race-free, and bitwise identical for any rank count). It reads u at neighbours, so
// assigning it to a dist_function exchanges u's halo first when stale, overlapped with
// the owned-interior cells. Runs on any executor (a .cu file and FUNCMESH_DEVICE fluxes
// for CUDA).
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <funcmesh/exec/worker_index.hpp>
#include <funcmesh/expr/detail/pack.hpp>
#include <funcmesh/expr/grid_expression.hpp>
#include <funcmesh/expr/zip_expr.hpp>
#include <funcmesh/faces/combine_ops.hpp>
#include <funcmesh/faces/detail/flux_checks.hpp>
#include <funcmesh/faces/detail/flux_window.hpp>
#include <funcmesh/faces/face_set.hpp>

namespace funcmesh {

// on("left", b): the boundary flux b(u_cell, face_view) on the faces of group "left".
template <class F>
struct boundary_flux {
  std::string name;
  F flux;
};
template <class F>
boundary_flux<F> on(std::string name, F flux) {
  return {std::move(name), std::move(flux)};
}
// on_other_groups(b): b on every boundary group no on(name, ...) names; b reads
// face.physical to tell them apart (boundary conditions chosen at run time).
inline constexpr const char* other_groups_name = "*";
template <class F>
boundary_flux<F> on_other_groups(F flux) {
  return {other_groups_name, std::move(flux)};
}

// antisymmetric(flux): a promise that flux(u_r, u_l, -n) == -flux(u_l, u_r, n) exactly, bit
// for bit (a conservative flux: what leaves one cell enters the other). Each face's flux is
// then evaluated once: scatter_faces adds it to the first cell and subtracts it from the
// second; sum_over_faces, on the host, keeps it for the second cell in a per-worker window
// (on a device each cell evaluates its own side). The promise makes these the same bits.
template <class F>
struct antisymmetric_flux {
  F flux;
  template <class U>
  FUNCMESH_DEVICE auto operator()(const U& self, const U& other, const face_view& f) const;
};
template <class F>
constexpr antisymmetric_flux<F> antisymmetric(F flux) {
  return {flux};
}
template <class F>
inline constexpr bool is_antisymmetric_v = false;
template <class F>
inline constexpr bool is_antisymmetric_v<antisymmetric_flux<F>> = true;

namespace detail {

// The groups' names, in order (a function: nvcc's front end misreads {b.name...}).
template <class... B>
std::vector<std::string> names_of(const boundary_flux<B>&... b) {
  std::vector<std::string> names;
  (names.push_back(b.name), ...);
  return names;
}

// The physical id of each named boundary group, in order. Throws when a name matches no
// boundary group, a group of the global mesh has no flux, or this part has boundary faces
// in no group. Only global facts decide the first two, so every rank throws alike.
std::vector<int> boundary_ids(const face_set& faces, const std::vector<std::string>& names,
                              const char* call);
// Throws unless `read` holds a value for every cell (owned + halo) of the face set's mesh.
void check_face_read(const face_set& faces, const grid_read& read, const char* call);

// The physical id that stands for on_other_groups.
inline constexpr int any_other_group = -1;

template <int N>
struct physical_ids {
  int id[N > 0 ? N : 1];
};

// The flux through face entry k of a cell: interior faces call flux(mine, other, face),
// domain-boundary faces the boundary flux of their group.
template <class V, class Flux, class... B>
struct face_fluxes {
  static constexpr bool serial_only = is_serial_only_v<Flux> || (is_serial_only_v<B> || ...);
  static constexpr index_t work = work_of_v<Flux>;
  static constexpr bool antisymmetric = is_antisymmetric_v<Flux>;
  Flux flux;
  pack<B...> boundary;
  physical_ids<static_cast<int>(sizeof...(B))> ids;

  template <class U>
  FUNCMESH_DEVICE V interior(const U& mine, const U& other, const face_view& f) const {
    return static_cast<V>(call(flux, mine, other, f));
  }
  template <class U>
  FUNCMESH_DEVICE V on_boundary(int physical, const U& mine, const face_view& f) const {
    return pick(physical, mine, f, std::index_sequence_for<B...>{});
  }

 private:
  template <class U, std::size_t... I>
  FUNCMESH_DEVICE V pick(int physical, const U& mine, const face_view& f,
                         std::index_sequence<I...>) const {
    // The group's own flux if it has one, else on_other_groups's.
    int which = -1;
    ((which < 0 && ids.id[I] == physical ? (which = static_cast<int>(I), 0) : 0), ...);
    ((which < 0 && ids.id[I] == any_other_group ? (which = static_cast<int>(I), 0) : 0), ...);
    V result{};
    ((static_cast<int>(I) == which ? (result = static_cast<V>(call(get<I>(boundary), mine, f)), 0)
                                   : 0),
     ...);
    return result;
  }
};

}  // namespace detail

// After binding: what a kernel evaluates. Combine: how the faces' values are combined
// (add_values for a sum; see combine_ops.hpp).
template <class Fluxes, class E, class Combine = add_values>
class bound_face_sum : public grid_expression<bound_face_sum<Fluxes, E, Combine>> {
 public:
  using tag_type = cells;
  using input_type = typename E::value_type;
  using value_type = std::remove_cvref_t<decltype(std::declval<const Fluxes&>().interior(
      std::declval<const input_type&>(), std::declval<const input_type&>(), face_view{}))>;
  static constexpr bool serial_only = E::serial_only || Fluxes::serial_only;
  // Four faces a cell, each reading the neighbour's input and the face's geometry.
  static constexpr index_t work = 4 * (Fluxes::work + E::work + 6);

  static constexpr bool is_sum = std::is_same_v<Combine, add_values>;

  FUNCMESH_DEVICE bound_face_sum(face_set_view faces, Fluxes fluxes, E input,
                                 detail::flux_windows windows = {}, Combine combine = {})
      : faces_(faces), fluxes_(fluxes), input_(input), windows_(windows), combine_(combine) {}

  FUNCMESH_INLINE FUNCMESH_DEVICE value_type operator[](index_t c) const {
#if !FUNCMESH_IN_DEVICE_CODE
    // An antisymmetric flux on the host: each face once, through the worker's window.
    if constexpr (Fluxes::antisymmetric && is_sum) {
      const int worker = exec::worker_index();
      if (windows_.base != nullptr && worker < windows_.workers) {
        return detail::windowed_face_sum<value_type>(faces_, windows_, worker, c, *this);
      }
    }
#endif
    value_type sum = combine_.template identity<value_type>();
    const input_type mine = input_[c];
    const index_t end = faces_.offsets[c + 1];
    for (index_t k = faces_.offsets[c]; k < end; ++k) {
      const index_t other = faces_.other[k];
      // The face's geometry is read in each branch, not before: loads above the branch
      // stay even where the interior flux reads none of them (neighbour bounds).
      if (other >= 0) {
        sum = combine_(sum, fluxes_.interior(mine, input_[other], faces_.entry(k, c)));
      } else {
        sum = combine_(sum,
                       fluxes_.on_boundary(static_cast<int>(-1 - other), mine, faces_.entry(k, c)));
      }
    }
    return value_type(sum);  // a copy, not NRVO: see bound_cell_face_sum
  }
  bound_face_sum bind_to(binder&) const { return *this; }
  template <class Visitor>
  void visit(Visitor&) const {}
  // Face f's flux out of its first cell (detail::windowed_face_sum).
  FUNCMESH_INLINE FUNCMESH_DEVICE value_type first_side(face_index f) const {
    const vec<face_index, 2> two = faces_.face_cells[f];
    const face_view v = faces_.face(f);
    if (two[1] < 0) return fluxes_.on_boundary(v.physical, input_[two[0]], v);
    return fluxes_.interior(input_[two[0]], input_[two[1]], v);
  }
  // For detail::windowed_face_sum, on the host: fill is the one compiled copy of the flux,
  // out of line (first_side_again is a fill of one slot), so a face has the same bits
  // whichever computes it. The compiler inlines the flux into it as it sees fit: forcing it
  // all in (gnu::flatten) made the HLLC face loop of bench/fv 1.4x slower (spills).
  value_type first_side_again(face_index f) const {
    value_type value{};
    fill(f, f + 1, &value, 0);
    return value;
  }
  [[gnu::noinline]] void fill(face_index from, face_index to, value_type* ring,
                              face_index mask) const {
    for (face_index f = from; f < to; ++f) ring[f & mask] = first_side(f);
  }

 private:
  face_set_view faces_;
  Fluxes fluxes_;
  E input_;
  detail::flux_windows windows_;
  Combine combine_;
};

template <class Fluxes, class E, class Combine = add_values>
class face_sum_expr : public grid_expression<face_sum_expr<Fluxes, E, Combine>> {
 public:
  using tag_type = cells;
  using bound_type =
      bound_face_sum<Fluxes, decltype(std::declval<const E&>().bind_to(std::declval<binder&>())),
                     Combine>;
  using value_type = typename bound_type::value_type;
  static constexpr bool serial_only = E::serial_only || bound_type::serial_only;
  static constexpr index_t work = bound_type::work;

  face_sum_expr(const face_set& faces, Fluxes fluxes, E input, Combine combine = {})
      : faces_(&faces), fluxes_(fluxes), input_(input), combine_(combine) {}

  // An antisymmetric flux gets per-worker windows on the host (each face evaluated once;
  // the same bits as evaluating it from both sides, which the device does).
  bound_type bind_to(binder& b) const {
    detail::flux_windows windows;
    if constexpr (Fluxes::antisymmetric && bound_type::is_sum) {
      windows = detail::make_flux_windows(*faces_, b.space(), b.holder(), sizeof(value_type));
    }
    return bound_type(faces_->bind_to(b.space(), b.holder()), fluxes_, input_.bind_to(b), windows,
                      combine_);
  }
  // Every read of the input is at neighbours (a proxy read, so stale halos are exchanged
  // and a target read here is refused as aliased); the face set's extent sizes the loop.
  template <class Visitor>
  void visit(Visitor& visitor) const {
    visitor(faces_->extent());
    auto at_neighbours = [&](const grid_read& read) {
      detail::check_face_read(*faces_, read, "funcmesh::sum_over_faces");
      visitor(read.at_neighbours());
    };
    input_.visit(at_neighbours);
  }

 private:
  const face_set* faces_;
  Fluxes fluxes_;
  E input_;
  Combine combine_;
};

template <class F>
template <class U>
FUNCMESH_DEVICE auto antisymmetric_flux<F>::operator()(const U& self, const U& other,
                                                       const face_view& f) const {
  return detail::call(flux, self, other, f);
}

// The flux through an interior face, flux(u_self, u_other, face) with face.normal out of
// the cell holding u_self, is what that face adds to the cell; a boundary flux b(u_self,
// face) the same on a domain-boundary face of b's group. Every boundary group of the
// global mesh needs one. u: a dist_function, grid function or cells expression. `faces`:
// a face set (or, with funcmesh/comm/face_sum.hpp, a distributed layout: its faces()).
// sum_over_cell_faces(faces, f, u): at each cell, the sum of f(u_cell, face) over all its
// faces (domain boundary included, face.physical telling which group), reading only the
// cell's own value: no halo is needed (Airfoil's adt, a cell's perimeter). It may also run
// over owned and halo cells (iteration_space::owned_and_halo()): a halo cell's sum has its
// owner's bits, given the owner's values (a halo cell's outer face reads as a face between
// cells: physical 0, distance NaN).
template <class F, class E, class Combine = add_values>
class bound_cell_face_sum : public grid_expression<bound_cell_face_sum<F, E, Combine>> {
 public:
  using tag_type = cells;
  using value_type = std::remove_cvref_t<decltype(detail::call(
      std::declval<const F&>(), std::declval<typename E::value_type>(), face_view{}))>;
  static constexpr bool serial_only = E::serial_only || is_serial_only_v<F>;
  static constexpr index_t work = E::work + 4 * (work_of_v<F> + 5);

  FUNCMESH_DEVICE bound_cell_face_sum(face_set_view faces, F f, E input, Combine combine = {})
      : faces_(faces), f_(f), input_(input), combine_(combine) {}

  FUNCMESH_INLINE FUNCMESH_DEVICE value_type operator[](index_t c) const {
    value_type sum = combine_.template identity<value_type>();
    const auto mine = input_[c];
    const index_t end = faces_.offsets[c + 1];
    for (index_t k = faces_.offsets[c]; k < end; ++k) {
      sum = combine_(sum, static_cast<value_type>(detail::call(f_, mine, faces_.entry(k, c))));
    }
    // A copy, not `return sum`: with NRVO the running value is the caller's temporary,
    // which GCC kept in memory and stored at every face (bench/fv's bounds, gradients).
    return value_type(sum);
  }
  bound_cell_face_sum bind_to(binder&) const { return *this; }
  template <class Visitor>
  void visit(Visitor&) const {}

 private:
  face_set_view faces_;
  F f_;
  E input_;
  Combine combine_;
};

template <class F, class E, class Combine = add_values>
class cell_face_sum_expr : public grid_expression<cell_face_sum_expr<F, E, Combine>> {
 public:
  using tag_type = cells;
  using bound_type =
      bound_cell_face_sum<F, decltype(std::declval<const E&>().bind_to(std::declval<binder&>())),
                          Combine>;
  using value_type = typename bound_type::value_type;
  static constexpr bool serial_only = bound_type::serial_only;
  static constexpr index_t work = bound_type::work;

  cell_face_sum_expr(const face_set& faces, F f, E input, Combine combine = {})
      : faces_(&faces), f_(f), input_(input), combine_(combine) {}

  bound_type bind_to(binder& b) const {
    return bound_type(faces_->bind_to(b.space(), b.holder()), f_, input_.bind_to(b), combine_);
  }
  template <class Visitor>
  void visit(Visitor& visitor) const {
    visitor(faces_->extent());
    input_.visit(visitor);
  }

 private:
  const face_set* faces_;
  F f_;
  E input_;
  Combine combine_;
};

namespace detail {
// The fluxes of a loop whose input values are U: interior flux and boundary fluxes with
// the physical ids they serve.
template <class U, class Flux, class... B>
auto make_face_fluxes(const Flux& flux, const std::vector<int>& ids, const boundary_flux<B>&... b) {
  using value = std::remove_cvref_t<decltype(call(flux, std::declval<const U&>(),
                                                  std::declval<const U&>(), face_view{}))>;
  face_fluxes<value, std::decay_t<Flux>, B...> fluxes{flux, make_pack(b.flux...), {}};
  for (std::size_t k = 0; k < ids.size(); ++k) fluxes.ids.id[k] = ids[k];
  return fluxes;
}
}  // namespace detail

// The fluxes' signatures are checked first (detail/flux_checks.hpp): a wrong one is one
// error naming it, and nothing more is built. The boundary groups' names are checked
// against the mesh's global list when the expression is built (every rank alike).
template <class Flux, class U, class... B>
auto sum_over_faces(const face_set& faces, Flux flux, const U& u, const boundary_flux<B>&... b) {
  using input_value = expr_value_t<U>;
  if constexpr (detail::check_face_fluxes<input_value, Flux, B...>()) {
    const std::vector<int> ids =
        detail::boundary_ids(faces, detail::names_of(b...), "funcmesh::sum_over_faces");
    auto input = as_node(u);
    auto fluxes = detail::make_face_fluxes<input_value>(flux, ids, b...);
    return face_sum_expr<decltype(fluxes), decltype(input)>(faces, fluxes, input);
  }
}

// combine_over_faces(faces, op, flux, u, boundary...): sum_over_faces with the faces'
// values combined by op instead of added (minimum, maximum or a user's associative and
// commutative operation with an identity: combine_ops.hpp), e.g. a cell's neighbour bounds.
// The same halo exchange, the same fixed order, the same bits on every executor.
template <class Op, class Flux, class U, class... B>
auto combine_over_faces(const face_set& faces, Op op, Flux flux, const U& u,
                        const boundary_flux<B>&... b) {
  using input_value = expr_value_t<U>;
  if constexpr (detail::check_face_fluxes<input_value, Flux, B...>()) {
    const std::vector<int> ids =
        detail::boundary_ids(faces, detail::names_of(b...), "funcmesh::combine_over_faces");
    auto input = as_node(u);
    auto fluxes = detail::make_face_fluxes<input_value>(flux, ids, b...);
    return face_sum_expr<decltype(fluxes), decltype(input), Op>(faces, fluxes, input, op);
  }
}

// u may be a number (sum_over_cell_faces(faces, f, 0.0)) when f reads the faces alone.
template <class F, class U>
auto sum_over_cell_faces(const face_set& faces, F f, const U& u) {
  if constexpr (detail::check_cell_face_function<F, expr_value_t<U>>()) {
    auto input = as_node(u);
    return cell_face_sum_expr<std::decay_t<F>, decltype(input)>(faces, f, input);
  }
}
// combine_over_cell_faces(faces, op, f, u): sum_over_cell_faces combined by op (the largest
// f over a cell's faces, a limiter's smallest factor), reading only the cell's own value.
template <class Op, class F, class U>
auto combine_over_cell_faces(const face_set& faces, Op op, F f, const U& u) {
  if constexpr (detail::check_cell_face_function<F, expr_value_t<U>>()) {
    auto input = as_node(u);
    return cell_face_sum_expr<std::decay_t<F>, decltype(input), Op>(faces, f, input, op);
  }
}

}  // namespace funcmesh
