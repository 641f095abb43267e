// face_flux_field<T>: the flux through every face of a layout's face set, evaluated once per
// face (for an antisymmetric flux), and sum_over_faces(field): each owned cell's sum of
// them in the gather form's fixed order, as an expression that fuses with the rest of a
// stage (an update, a residual) instead of a second pass over a stored sum.
#pragma once

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/comm/halo_state.hpp>
#include <funcmesh/core/error.hpp>
#include <funcmesh/exec/dispatch.hpp>
#include <funcmesh/expr/assign.hpp>
#include <funcmesh/faces/face_set.hpp>
#include <funcmesh/faces/face_sum.hpp>
#include <funcmesh/memory/array.hpp>

namespace funcmesh {

namespace detail {

// Face f's flux out of its first cell into through[f]: each face writes its own slot, so
// any executor runs the faces in any order.
template <class V, class Input, class Fluxes>
struct face_flux_body {
  view<V> through;
  Input input;
  face_set_view faces;
  Fluxes fluxes;

  FUNCMESH_INLINE FUNCMESH_DEVICE void operator()(index_t f) const {
    const vec<face_index, 2> two = faces.face_cells[f];
    const face_view v = faces.face(f);
    if (two[1] < 0) {
      through[f] = static_cast<V>(fluxes.on_boundary(v.physical, input[two[0]], v));
    } else {
      through[f] = static_cast<V>(fluxes.interior(input[two[0]], input[two[1]], v));
    }
  }
};

// Throws unless the field holds fluxes (evaluate has run).
void check_flux_field_evaluated(bool evaluated, const std::string& name);

}  // namespace detail

template <class T>
class face_flux_field {
  static_assert(std::is_trivially_copyable_v<T>,
                "face_flux_field<T>: T must be trivially copyable");

 public:
  using value_type = T;

  // One value per face of layout.faces() (built here if not yet: collective).
  explicit face_flux_field(const distributed_layout& layout, std::string name = "face fluxes")
      : face_flux_field(layout, buffer(), std::move(name)) {}
  // The same in given storage (resized to fit): gather_faces lends the face set's scratch.
  face_flux_field(const distributed_layout& layout, buffer storage, std::string name)
      : layout_(layout), faces_(&layout.faces()), name_(std::move(name)) {
    const std::size_t bytes = detail::checked_bytes(faces_->size(), sizeof(T));
    if (storage.size_bytes() != bytes) storage.set_size(bytes);
    values_ = array<T>(std::move(storage));
  }

  // Every face's flux(u_first, u_second, face) (face.normal out of the first cell, the
  // lower global id) and b(u, face) on boundary group faces, once each. The flux must be
  // declared antisymmetric(flux): the second cell takes the negation. u: a dist_function
  // or any cells expression of them on this layout (zip_with(f, q, adt): no combined copy
  // is stored); the halos it reads are exchanged first when dirty. Collective.
  template <class Compiler = exec::this_compiler, class U, class Flux, class... B>
  void evaluate(const U& u, const Flux& flux, const boundary_flux<B>&... boundary) {
    static_assert(is_antisymmetric_v<Flux>,
                  "face_flux_field::evaluate: each face's flux is evaluated once and its second "
                  "cell takes the negation; declare the flux antisymmetric(flux) (a promise "
                  "that flux(u_r, u_l, -n) == -flux(u_l, u_r, n)), or use sum_over_faces(layout, "
                  "flux, u, ...), which evaluates it from both sides");
    constexpr const char* call = "funcmesh::face_flux_field::evaluate";
    const std::vector<int> ids = detail::boundary_ids(*faces_, detail::names_of(boundary...), call);
    const auto input = as_node(u);
    detail::halo_reads reads;
    auto reader = [this] { return "the face flux field '" + name_ + "'"; };
    auto visitor = [&](const grid_read& read) {
      detail::check_face_read(*faces_, read, call);
      detail::note_halo_read(layout_, read.at_neighbours(), reads, reader, call);
    };
    input.visit(visitor);
    const executor on = default_executor<Compiler>();
    detail::keep_dirty(layout_, reads, call);
    if (!reads.empty()) detail::exchange_dirty(layout_, reads, on, call);
    using input_value = typename std::remove_cvref_t<decltype(input)>::value_type;
    const auto fluxes = detail::make_face_fluxes<input_value>(flux, ids, boundary...);
    using fluxes_type = std::remove_cvref_t<decltype(fluxes)>;
    constexpr bool serial_only = fluxes_type::serial_only || decltype(input)::serial_only;
    const executor chosen = exec::effective_executor(on, serial_only);
    token holder;
    binder b(chosen.space(), holder);
    const auto bound = input.bind_to(b);
    const face_set_view arrays = faces_->bind_to(chosen.space(), holder);
    const view<T> through = values_.overwrite_view(chosen.space(), holder);
    const exec::loop_label label{"face fluxes", &name_, 1};
    exec::for_each<Compiler>(
        chosen, 0, faces_->size(),
        detail::face_flux_body<T, decltype(bound), fluxes_type>{through, bound, arrays, fluxes},
        exec::loop_shape{serial_only, 2 * (fluxes_type::work + decltype(input)::work + 6)}, label);
    evaluated_ = true;
  }

  const distributed_layout& layout() const { return layout_; }
  const face_set& faces() const { return *faces_; }
  const std::string& name() const { return name_; }
  bool evaluated() const { return evaluated_; }
  // Host reads (tests): face f's flux out of its first cell.
  read_access<T> read() const { return values_.read(); }
  view<const T> read_view(memory_space space, token& holder) const {
    detail::check_flux_field_evaluated(evaluated_, name_);
    return values_.read_view(space, holder);
  }

 private:
  distributed_layout layout_;
  const face_set* faces_;
  std::string name_;
  array<T> values_;
  bool evaluated_ = false;
};

// At owned cell c: the sum over its faces, in the gather form's fixed order, of the
// field's flux, negated where c is the face's second cell.
template <class T>
class bound_flux_field_sum : public grid_expression<bound_flux_field_sum<T>> {
 public:
  using tag_type = cells;
  using value_type = T;
  static constexpr bool serial_only = false;
  static constexpr index_t work = 4 * 4;

  FUNCMESH_DEVICE bound_flux_field_sum(face_set_view faces, view<const T> through)
      : faces_(faces), through_(through) {}

  FUNCMESH_INLINE FUNCMESH_DEVICE T operator[](index_t c) const {
    T sum{};
    const index_t end = faces_.offsets[c + 1];
    for (index_t k = faces_.offsets[c]; k < end; ++k) {
      const face_index e = faces_.entry_face[k];
      sum = face_set_view::add_oriented(sum, e, through_[face_set_view::face_of(e)]);
    }
    return sum;
  }
  bound_flux_field_sum bind_to(binder&) const { return *this; }
  template <class Visitor>
  void visit(Visitor&) const {}

 private:
  face_set_view faces_;
  view<const T> through_;
};

template <class T>
class flux_field_sum_expr : public grid_expression<flux_field_sum_expr<T>> {
 public:
  using tag_type = cells;
  using value_type = T;
  using bound_type = bound_flux_field_sum<T>;
  static constexpr bool serial_only = false;
  static constexpr index_t work = bound_type::work;

  explicit flux_field_sum_expr(const face_flux_field<T>& field) : field_(&field) {}

  bound_type bind_to(binder& b) const {
    return bound_type(field_->faces().bind_to(b.space(), b.holder()),
                      field_->read_view(b.space(), b.holder()));
  }
  // Reads no cell values: only the extent of the face set's cells.
  template <class Visitor>
  void visit(Visitor& visitor) const {
    visitor(field_->faces().extent());
  }

 private:
  const face_flux_field<T>* field_;
};

template <class T>
flux_field_sum_expr<T> sum_over_faces(const face_flux_field<T>& field) {
  return flux_field_sum_expr<T>(field);
}

}  // namespace funcmesh
