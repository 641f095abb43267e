// paged_dist_function<T, Tag>: a distributed function whose local values (owned + halo)
// live in a paged array (a file, device memories) with a few pages cached in host memory,
// so that a rank's part may exceed its memory. Assignments run page by page around the
// halo exchange; the halo is packed and unpacked through the cache.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/comm/halo_state.hpp>
#include <funcmesh/comm/paged_distributed_assign.hpp>
#include <funcmesh/paged/paged_grid_function.hpp>

namespace funcmesh {

namespace detail {
[[noreturn]] void refuse_moved_from_paged_dist_function();
}  // namespace detail

template <class T, class Tag = cells>
class paged_dist_function {
 public:
  using value_type = T;
  using tag_type = Tag;

  // A function on `layout`'s cells whose values live on `store` (kept as a recipe, so that
  // similar() makes the time driver's registers on the same kind of store), cut and cached
  // as `options` say. The paged array's checks apply. Every rank constructs its functions
  // in the same order on the same layout (the SPMD contract). No message.
  paged_dist_function(const distributed_layout& layout, const page_store& store,
                      paged_options options = {}, std::string name = {})
      : paged_dist_function(layout, std::shared_ptr<const page_store>(store.clone_unopened()),
                            options, std::move(name)) {}
  paged_dist_function(const distributed_layout& layout, std::shared_ptr<const page_store> recipe,
                      paged_options options, std::string name)
      : values_(std::make_unique<holder>(layout, std::move(recipe), options, std::move(name))) {}

  // Moves keep the values' address (expressions built on them stay valid); a moved-from
  // function may only be destroyed or assigned a function by move. No copy constructor (a
  // copy is another array on a store: similar(u, name), then v = u); v = u copies the
  // owned values page by page (v's halo is then dirty).
  paged_dist_function(paged_dist_function&&) noexcept = default;
  paged_dist_function& operator=(paged_dist_function&&) noexcept = default;
  paged_dist_function(const paged_dist_function&) = delete;
  paged_dist_function& operator=(const paged_dist_function& other) {
    if (this != &other) assign(other);
    return *this;
  }
  ~paged_dist_function() = default;

  const distributed_layout& layout() const { return held().layout; }
  const std::string& name() const { return held().local.name(); }
  // The local values: owned [0, owned_size()), then the halo. Writing them through set()
  // or write() makes the halo dirty; writes through local_values().array() do not (call
  // mark_halo_stale() on every rank after them).
  paged_grid_function<T, Tag>& local_values() { return held().local; }
  const paged_grid_function<T, Tag>& local_values() const { return held().local; }
  [[deprecated(
      "write u.local_values() (the name local() was shared with the layout's "
      "mesh)")]] paged_grid_function<T, Tag>&
  local() {
    return local_values();
  }
  [[deprecated(
      "write u.local_values() (the name local() was shared with the layout's "
      "mesh)")]] const paged_grid_function<T, Tag>&
  local() const {
    return local_values();
  }
  index_t owned_size() const { return held().local.owned_size(); }
  index_t interior_size() const { return layout().interior_count(); }
  index_t pages() const { return held().local.pages(); }
  index_t page_size() const { return held().local.page_size(); }

  // Element and range access through the cache (bounds-checked, thread-safe).
  T get(index_t i) const { return held().local.get(i); }
  void set(index_t i, const T& value) { held().local.set(i, value); }
  void write(index_t first, std::span<const T> values) { held().local.write(first, values); }
  // The owned values.
  std::vector<T> to_vector() const { return held().local.to_vector(); }

  bool halo_stale() const { return held().state.stale(); }
  void mark_halo_stale() { held().state.mark_stale(); }
  std::uint64_t exchange_count() const { return held().state.exchanges(); }
  halo_state& halo_status() const { return held().state; }
  [[deprecated(
      "write u.halo_status() (layout.exchange_plan() is the layout's exchange)")]] halo_state&
  halo() const {
    return halo_status();
  }
  // Fills the halo from the owners when dirty (decided locally). Collective over the layout.
  void exchange() const {
    detail::halo_reads reads;
    reads.add(&held().state);
    detail::exchange_dirty(layout(), reads, default_executor<exec::host_compiler>(),
                           "funcmesh::paged_dist_function::exchange");
  }

  // What an expression reads of u: its values through its pages, with its halo state.
  paged_read<T, Tag> as_expression() const {
    return paged_read<T, Tag>(held().local, &held().state);
  }

  // u = e, u op= e over the owned cells, page by page (halos read at neighbours exchanged
  // first when dirty, overlapped with the owned-interior cells). Collective over the layout.
  template <class E>
  requires(Expression<E> || Scalar<E>) paged_dist_function& operator=(const E& e) {
    assign(e);
    return *this;
  }
  template <class E>
  requires(Expression<E> || Scalar<E>) paged_dist_function& operator+=(const E& e) {
    detail::assign_paged_distributed<assign_ops::add>(layout(), local_values(), e, {});
    return *this;
  }
  template <class E>
  requires(Expression<E> || Scalar<E>) paged_dist_function& operator-=(const E& e) {
    detail::assign_paged_distributed<assign_ops::subtract>(layout(), local_values(), e, {});
    return *this;
  }
  template <class E>
  requires(Expression<E> || Scalar<E>) paged_dist_function& operator*=(const E& e) {
    detail::assign_paged_distributed<assign_ops::multiply>(layout(), local_values(), e, {});
    return *this;
  }
  template <class E>
  requires(Expression<E> || Scalar<E>) paged_dist_function& operator/=(const E& e) {
    detail::assign_paged_distributed<assign_ops::divide>(layout(), local_values(), e, {});
    return *this;
  }
  // u.assign(e, {.on = executor::openmp()}): the executor must be a host one.
  template <class E>
  void assign(const E& e, const run_options& options = {}) {
    detail::assign_paged_distributed<assign_ops::set>(layout(), local_values(), e, options);
  }

  friend void swap(paged_dist_function& a, paged_dist_function& b) noexcept {
    a.values_.swap(b.values_);
  }

 private:
  // On the heap, so that the state's pointers to the layout and values survive moves.
  struct holder {
    holder(const distributed_layout& l, std::shared_ptr<const page_store> recipe,
           paged_options options, std::string name)
        : layout(l),
          local(l.owned_count(), l.total_count() - l.owned_count(), std::move(recipe), options,
                std::move(name)),
          state(layout, local) {}
    holder(const holder&) = delete;
    holder& operator=(const holder&) = delete;

    distributed_layout layout;
    paged_grid_function<T, Tag> local;
    halo_state state;
  };
  holder& held() const {
    if (!values_) detail::refuse_moved_from_paged_dist_function();
    return *values_;
  }
  std::unique_ptr<holder> values_;
};

// The time driver's customization points: a register on the same layout and kind of
// store, with u's page and cache sizes; u is its own operand.
template <class T, class Tag>
paged_dist_function<T, Tag> similar(const paged_dist_function<T, Tag>& u, std::string name) {
  return paged_dist_function<T, Tag>(u.layout(), u.local_values().recipe(),
                                     u.local_values().options(), std::move(name));
}
template <class T, class Tag>
const paged_dist_function<T, Tag>& values(const paged_dist_function<T, Tag>& u) {
  return u;
}

// pr(u): u's local values (owned + halo) read at neighbours through its cache; an
// assignment reading it exchanges u's halo first when dirty.
template <class T, class Tag>
paged_proxy_source<T, Tag> pr(const paged_dist_function<T, Tag>& u) {
  return {&u.local_values(), &u.halo_status()};
}

}  // namespace funcmesh
