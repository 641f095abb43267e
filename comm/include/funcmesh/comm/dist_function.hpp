// dist_function<T, Tag>: a distributed grid function: its layout, its local values (owned
// + halo) and its halo state. An operand like a grid function (u + v, f / u * pr(u),
// sum_over_faces(..., u), global_sum(u)); assigning an expression that reads a dirty halo
// at neighbours exchanges it, overlapped with the owned-interior cells.
#pragma once

#include <concepts>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include <mpi.h>

#include <funcmesh/comm/distributed_assign.hpp>
#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/comm/halo_state.hpp>
#include <funcmesh/exec/backend.hpp>
#include <funcmesh/expr/assign.hpp>
#include <funcmesh/expr/grid_function.hpp>

namespace funcmesh {

namespace detail {
[[noreturn]] void refuse_moved_from_dist_function();
}  // namespace detail

template <class T, class Tag = cells>
class dist_function {
 public:
  using value_type = T;
  using tag_type = Tag;

  // A function on `layout`'s cells. Every rank constructs its dist_functions in the same
  // order on the same layout (the SPMD contract). No message.
  explicit dist_function(const distributed_layout& layout, std::string name = {})
      : values_(std::make_unique<holder>(layout, std::move(name))) {}
  // The form before layouts: distribute() returns the layout to build functions from.
  template <class C>
  requires std::same_as<C, MPI_Comm> dist_function(C, const local_mesh&, std::string = {}) {
    static_assert(detail::always_false_v<C>,
                  "funcmesh: dist_function(comm, local_mesh) is gone: distribute() returns a "
                  "distributed_layout; construct dist_function<T>(layout, \"name\")");
  }

  // A deep copy on the same layout (owned and halo values; a clean halo stays clean).
  dist_function(const dist_function& other)
      : values_(std::make_unique<holder>(other.layout(), other.name())) {
    values_->local = other.local_values();
    if (!other.halo_stale()) values_->state.mark_exchanged();
  }
  // Moves keep the values' address (expressions built on them stay valid). A moved-from
  // function may be destroyed, or given a function by u = v or u = std::move(v); any other
  // use throws funcmesh::error.
  dist_function(dist_function&&) noexcept = default;
  dist_function& operator=(dist_function&&) noexcept = default;
  // u = v: v's owned values, as an assignment (u's halo is then dirty). Same layout.
  dist_function& operator=(const dist_function& other) {
    if (!values_) values_ = std::make_unique<holder>(other.layout(), other.name());
    if (this != &other) assign(other);
    return *this;
  }
  ~dist_function() = default;

  const distributed_layout& layout() const { return held().layout; }
  const std::string& name() const { return held().local.name(); }
  // The local values: owned [0, owned_size()), then the halo. Writing them (any
  // assignment, write()) makes the halo dirty.
  grid_function<T, Tag>& local_values() { return held().local; }
  const grid_function<T, Tag>& local_values() const { return held().local; }
  [[deprecated(
      "write u.local_values() (the name local() was shared with the layout's "
      "mesh)")]] grid_function<T, Tag>&
  local() {
    return local_values();
  }
  [[deprecated(
      "write u.local_values() (the name local() was shared with the layout's "
      "mesh)")]] const grid_function<T, Tag>&
  local() const {
    return local_values();
  }
  index_t owned_size() const { return held().local.owned_size(); }
  index_t interior_size() const { return layout().interior_count(); }
  // Host access to every local value; write() counts as a write (the halo is then dirty).
  read_access<T> read(memory_space space = host_space) const { return held().local.read(space); }
  write_access<T> write(memory_space space = host_space) { return held().local.write(space); }

  // Dirty: written since its halo was last filled, on this rank.
  bool halo_stale() const { return held().state.stale(); }
  // After a host write on only some ranks: call on every rank (collective by contract),
  // so that every rank exchanges at the next read. No message.
  void mark_halo_stale() { held().state.mark_stale(); }
  // Rounds that refreshed this function's halo.
  std::uint64_t exchange_count() const { return held().state.exchanges(); }
  // This function's side of the halo: dirty or clean, rounds, its pack/unpack source.
  halo_state& halo_status() const { return held().state; }
  [[deprecated(
      "write u.halo_status() (layout.exchange_plan() is the layout's exchange)")]] halo_state&
  halo() const {
    return halo_status();
  }

  // Fills the halo from the owners when dirty (decided locally; see spmd_check.hpp).
  // Collective over the layout. Const, as reading u in an assignment is: the halo holds
  // copies of other ranks' values, and refreshing them changes nothing this rank owns.
  void exchange(const executor& on = default_executor()) const {
    detail::halo_reads reads;
    reads.add(&held().state);
    detail::exchange_dirty(layout(), reads, on, "funcmesh::dist_function::exchange");
  }

  // What an expression reads of u: its local values at the index computed, with its halo
  // state (the Expression protocol, grid_expression.hpp).
  function_read<T, Tag> as_expression() const {
    return function_read<T, Tag>(held().local, &held().state);
  }

  // u = e, u op= e over the owned cells (halos exchanged first where e reads them dirty).
  template <class E, class Compiler = exec::this_compiler>
  requires(Expression<E> || Scalar<E>) dist_function& operator=(const E& e) {
    assign<E, Compiler>(e);
    return *this;
  }
  template <class E, class Compiler = exec::this_compiler>
  requires(Expression<E> || Scalar<E>) dist_function& operator+=(const E& e) {
    detail::run_distributed<Compiler>({}, layout(), {}, add_to(local_values(), e));
    return *this;
  }
  template <class E, class Compiler = exec::this_compiler>
  requires(Expression<E> || Scalar<E>) dist_function& operator-=(const E& e) {
    detail::run_distributed<Compiler>({}, layout(), {}, subtract_from(local_values(), e));
    return *this;
  }
  template <class E, class Compiler = exec::this_compiler>
  requires(Expression<E> || Scalar<E>) dist_function& operator*=(const E& e) {
    detail::run_distributed<Compiler>({}, layout(), {}, multiply_by(local_values(), e));
    return *this;
  }
  template <class E, class Compiler = exec::this_compiler>
  requires(Expression<E> || Scalar<E>) dist_function& operator/=(const E& e) {
    detail::run_distributed<Compiler>({}, layout(), {}, divide_by(local_values(), e));
    return *this;
  }
  template <class E, class Compiler = exec::this_compiler>
  void assign(const E& e, const executor& on = default_executor<Compiler>()) {
    detail::run_distributed<Compiler>(run_options{.on = on}, layout(), {}, set(local_values(), e));
  }
  // u = e with options: u.assign(e, with_halo()) computes u's halo cells too, from reads
  // of each cell's own values, and leaves u's halo clean (run(options, s...) explains).
  template <class E, class Compiler = exec::this_compiler>
  void assign(const E& e, const run_options& options) {
    detail::run_distributed<Compiler>(options, layout(), {}, set(local_values(), e));
    if (options.over.what() == iteration_space::kind::owned_and_halo) {
      detail::mark_halo_computed(&held().state);
    }
  }

  friend void swap(dist_function& a, dist_function& b) noexcept { a.values_.swap(b.values_); }

 private:
  // On the heap, so that the state's pointers to the layout and values survive moves.
  struct holder {
    holder(const distributed_layout& l, std::string name)
        : layout(l),
          local(l.owned_count(), l.total_count() - l.owned_count(), std::move(name)),
          state(layout, local) {}
    holder(const holder&) = delete;
    holder& operator=(const holder&) = delete;

    distributed_layout layout;
    grid_function<T, Tag> local;
    halo_state state;
  };
  holder& held() const {
    if (!values_) detail::refuse_moved_from_dist_function();
    return *values_;
  }
  std::unique_ptr<holder> values_;
};

template <class T>
inline constexpr bool is_dist_function_v = false;
template <class T, class Tag>
inline constexpr bool is_dist_function_v<dist_function<T, Tag>> = true;

// Statements on distributed functions, for run(options, s...) (distributed_assign.hpp).
#define FUNCMESH_DIST_STATEMENT(name)                                                             \
  template <class T, class Tag, class E>                                                          \
  auto name(dist_function<T, Tag>& target, const E& expression) {                                 \
    using plain = decltype(name(target.local_values(), expression));                              \
    return dist_statement<plain>{name(target.local_values(), expression), &target.halo_status()}; \
  }
FUNCMESH_DIST_STATEMENT(set)
FUNCMESH_DIST_STATEMENT(add_to)
FUNCMESH_DIST_STATEMENT(subtract_from)
FUNCMESH_DIST_STATEMENT(multiply_by)
FUNCMESH_DIST_STATEMENT(divide_by)
#undef FUNCMESH_DIST_STATEMENT

// The time driver's customization points: a new function on the same layout, and the
// operand its stages read (the function itself).
template <class T, class Tag>
dist_function<T, Tag> similar(const dist_function<T, Tag>& u, std::string name) {
  return dist_function<T, Tag>(u.layout(), std::move(name));
}
template <class T, class Tag>
const dist_function<T, Tag>& values(const dist_function<T, Tag>& u) {
  return u;
}

// pr(u): u's local values (owned + halo) as a proxy, for neighbour reads in expressions; an
// assignment reading it exchanges u's halo first when dirty.
template <class T, class Tag>
proxy_source<T, Tag> pr(const dist_function<T, Tag>& u) {
  return {&u.local_values(), &u.halo_status()};
}

}  // namespace funcmesh
