// dist_function<T, Tag>: a distributed grid function — the local values (owned + halo)
// and the halo plan of their mesh. Assigning an expression that reads a stale halo
// through a proxy exchanges it, overlapped with the owned-interior cells.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <funcmesh/comm/halo_plan.hpp>
#include <funcmesh/exec/backend.hpp>
#include <funcmesh/expr/assign.hpp>
#include <funcmesh/expr/grid_function.hpp>

namespace funcmesh {

namespace detail {

// What an assignment needs to know about a grid function that a dist_function manages.
struct halo_state {
  std::shared_ptr<halo_plan> plan;
  grid_function_base* function = nullptr;
  std::size_t element_size = 0;
  std::uint64_t exchanged_at = 0;  // function->write_count() when its halo was last filled
  std::uint64_t exchanges = 0;     // rounds that refreshed this function's halo
  bool stale() const { return function->write_count() != exchanged_at; }
};

// Expressions report their reads as grid_function_base&: this registry (process-wide,
// locked) tells which of them belong to a dist_function. Entries live as long as the
// dist_function's values, whose address never changes (moves move a pointer).
void register_halo(const grid_function_base& function, halo_state& state);
void unregister_halo(const grid_function_base& function) noexcept;
halo_state* find_halo(const grid_function_base& function);

// Keeps the candidates whose halo is stale on ANY rank of their plan (one MPI_Allreduce):
// staleness is first seen per rank, and ranks that disagreed would start different
// rounds and wait for each other forever. Candidates must be listed in the same order on
// every rank (they come from visiting the same expression).
void keep_stale_anywhere(std::vector<halo_state*>& candidates);

// One round for all the given functions (grouped by plan; one round per plan) and its end.
void begin_halos(const std::vector<halo_state*>& states, const executor& on);
void end_halos(const std::vector<halo_state*>& states, const executor& on);

// Runs statement `s` over the owned cells; when it reads stale dist_function halos
// through proxies: begin exchange, interior cells, end exchange, owned-boundary cells.
template <class Compiler, class S>
void run_distributed(const halo_plan& plan, const S& s, const executor& on) {
  std::vector<halo_state*> stale;
  auto visitor = [&](const grid_function_base& read, read_mode mode) {
    // Refused before any message is started, so no rank is left with a round in flight.
    check_not_aliased(*s.target, read, mode);
    if (mode != read_mode::proxy) return;
    halo_state* h = find_halo(read);
    if (h != nullptr && std::ranges::find(stale, h) == stale.end()) stale.push_back(h);
  };
  s.expression.visit(visitor);
  keep_stale_anywhere(stale);
  if (stale.empty()) {
    run<Compiler>(run_options{.on = on, .over = iteration_space::owned()}, s);
    return;
  }
  begin_halos(stale, on);
  try {
    run<Compiler>(run_options{.on = on, .over = iteration_space::range(0, plan.interior_count())},
                  s);
  } catch (...) {
    end_halos(stale, on);  // the peers' messages still arrive: complete the round
    throw;
  }
  end_halos(stale, on);
  run<Compiler>(
      run_options{.on = on,
                  .over = iteration_space::range(plan.interior_count(), plan.owned_count())},
      s);
}

}  // namespace detail

template <class T, class Tag = cells>
class dist_function {
 public:
  using value_type = T;
  using tag_type = Tag;

  // Every rank constructs its dist_functions in the same order from the same partition.
  dist_function(std::shared_ptr<halo_plan> plan, std::string name = {})
      : values_(std::make_unique<holder>(std::move(plan), std::move(name))) {}
  dist_function(MPI_Comm comm, const local_mesh& m, std::string name = {})
      : dist_function(halo_plan_for(comm, m), std::move(name)) {}

  // Moves keep the values' address (and so the registry entry); a moved-from object may
  // only be destroyed or assigned to. Copies would need a second halo state: not offered.
  dist_function(dist_function&&) noexcept = default;
  dist_function& operator=(dist_function&&) noexcept = default;
  dist_function(const dist_function&) = delete;
  dist_function& operator=(const dist_function&) = delete;
  ~dist_function() = default;

  // The local values: owned [0, owned_size()), then the halo. Writing them (any
  // assignment, write()) makes the halo stale.
  grid_function<T, Tag>& local() { return values_->local; }
  const grid_function<T, Tag>& local() const { return values_->local; }

  halo_plan& plan() const { return *values_->state.plan; }
  const std::shared_ptr<halo_plan>& shared_plan() const { return values_->state.plan; }
  index_t owned_size() const { return values_->local.owned_size(); }
  index_t interior_size() const { return plan().interior_count(); }
  bool halo_stale() const { return values_->state.stale(); }
  // Rounds that refreshed this function's halo.
  std::uint64_t exchange_count() const { return values_->state.exchanges; }

  // Fills the halo from the owners, only when stale on some rank. Collective over the
  // plan's ranks.
  void exchange(const executor& on = default_executor()) {
    std::vector<detail::halo_state*> candidates{&values_->state};
    detail::keep_stale_anywhere(candidates);
    if (candidates.empty()) return;
    // Named, not braced in the call: nvcc's front end misreads the braced list.
    const std::vector<detail::halo_state*> one{&values_->state};
    detail::begin_halos(one, on);
    detail::end_halos(one, on);
  }

  // u = e over the owned cells (halos exchanged first where e reads them stale).
  template <class E, class Compiler = exec::this_compiler>
  requires(Expression<E> || Scalar<E>) dist_function& operator=(const E& e) {
    assign<E, Compiler>(e);
    return *this;
  }
  template <class E, class Compiler = exec::this_compiler>
  requires(Expression<E> || Scalar<E>) dist_function& operator+=(const E& e) {
    detail::run_distributed<Compiler>(plan(), add_to(local(), e), default_executor());
    return *this;
  }
  template <class E, class Compiler = exec::this_compiler>
  requires(Expression<E> || Scalar<E>) dist_function& operator-=(const E& e) {
    detail::run_distributed<Compiler>(plan(), subtract_from(local(), e), default_executor());
    return *this;
  }
  template <class E, class Compiler = exec::this_compiler>
  void assign(const E& e, const executor& on = default_executor()) {
    detail::run_distributed<Compiler>(plan(), set(local(), e), on);
  }

  friend void swap(dist_function& a, dist_function& b) noexcept { a.values_.swap(b.values_); }

 private:
  struct holder {
    holder(std::shared_ptr<halo_plan> p, std::string name)
        : local(p->owned_count(), p->total_count() - p->owned_count(), std::move(name)) {
      state.plan = std::move(p);
      state.function = &local;
      state.element_size = sizeof(T);
      // Fresh values: the halo is as stale as the owned values are unset.
      state.exchanged_at = local.write_count() - 1;
      detail::register_halo(local, state);
    }
    ~holder() { detail::unregister_halo(local); }
    holder(const holder&) = delete;
    holder& operator=(const holder&) = delete;

    grid_function<T, Tag> local;
    detail::halo_state state;
  };
  std::unique_ptr<holder> values_;
};

// The time driver's customization points: a new function on the same mesh and plan, and
// the values an expression reads.
template <class T, class Tag>
dist_function<T, Tag> similar(const dist_function<T, Tag>& u, std::string name) {
  return dist_function<T, Tag>(u.shared_plan(), std::move(name));
}
template <class T, class Tag>
const grid_function<T, Tag>& values(const dist_function<T, Tag>& u) {
  return u.local();
}

// pr(u): the local values (owned + halo) as a proxy, for neighbour reads in expressions;
// assignments to a dist_function exchange its halo first when stale.
template <class T, class Tag>
proxy_source<T, Tag> pr(const dist_function<T, Tag>& u) {
  return pr(u.local());
}

}  // namespace funcmesh
