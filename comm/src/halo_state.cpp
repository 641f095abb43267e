// The halo state of dist_functions: which grid functions a dist_function manages (a
// registry), the collective staleness decision, and starting and ending their rounds.
#include <funcmesh/comm/dist_function.hpp>

#include <algorithm>
#include <exception>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include <funcmesh/comm/mpi_error.hpp>

namespace funcmesh::detail {

namespace {
std::mutex registry_guard;
std::unordered_map<const grid_function_base*, halo_state*>& registry() {
  static std::unordered_map<const grid_function_base*, halo_state*> map;
  return map;
}
}  // namespace

void register_halo(const grid_function_base& function, halo_state& state) {
  const std::lock_guard lock(registry_guard);
  registry()[&function] = &state;
}

void unregister_halo(const grid_function_base& function) noexcept {
  const std::lock_guard lock(registry_guard);
  registry().erase(&function);
}

halo_state* find_halo(const grid_function_base& function) {
  const std::lock_guard lock(registry_guard);
  const auto found = registry().find(&function);
  return found == registry().end() ? nullptr : found->second;
}

namespace {
// The plans of `states` in first-seen order, with their fields: every rank visits the
// same expression, so every rank starts the same rounds in the same order.
std::vector<std::pair<halo_plan*, std::vector<halo_field>>> rounds(
    const std::vector<halo_state*>& states) {
  std::vector<std::pair<halo_plan*, std::vector<halo_field>>> out;
  for (halo_state* s : states) {
    auto it = std::ranges::find(out, s->plan.get(), &decltype(out)::value_type::first);
    if (it == out.end()) it = out.insert(out.end(), {s->plan.get(), {}});
    it->second.push_back({s->function, s->element_size});
  }
  return out;
}
}  // namespace

void keep_stale_anywhere(std::vector<halo_state*>& candidates) {
  if (candidates.empty()) return;
  const MPI_Comm comm = candidates.front()->plan->comm();
  std::vector<int> stale(candidates.size());
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    // Each plan has its own communicator; one allreduce serves all of them when they
    // hold the same ranks in the same order.
    int relation = MPI_IDENT;
    if (const MPI_Comm other = candidates[k]->plan->comm(); other != comm) {
      check_mpi(MPI_Comm_compare(comm, other, &relation), "MPI_Comm_compare", comm);
    }
    if (relation != MPI_IDENT && relation != MPI_CONGRUENT) {
      throw error(mpi::rank_prefix() +
                  "funcmesh: one assignment reads distributed functions of different "
                  "communicators through proxies");
    }
    stale[k] = candidates[k]->stale() ? 1 : 0;
  }
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, stale.data(), static_cast<int>(stale.size()), MPI_INT,
                          MPI_MAX, comm),
            "MPI_Allreduce (halo staleness)", comm);
  std::size_t kept = 0;
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    if (stale[k] != 0) candidates[kept++] = candidates[k];
  }
  candidates.resize(kept);
}

void begin_halos(const std::vector<halo_state*>& states, const executor& on) {
  auto all = rounds(states);
  std::size_t started = 0;
  try {
    for (auto& [plan, fields] : all) {
      plan->begin(fields, on);
      ++started;
    }
  } catch (...) {
    for (std::size_t i = 0; i < started; ++i) all[i].first->end(on);
    throw;
  }
  // The values packed are those of this write count; nothing writes them until end.
  for (halo_state* s : states) s->exchanged_at = s->function->write_count();
}

void end_halos(const std::vector<halo_state*>& states, const executor& on) {
  // Every round is ended even when one fails, as the peers end theirs.
  std::exception_ptr failure;
  for (auto& [plan, fields] : rounds(states)) {
    try {
      if (plan->in_flight()) plan->end(on);
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) {
    // Some halos were not filled: stale again, so the next read does not trust them.
    for (halo_state* s : states) s->exchanged_at = s->function->write_count() - 1;
    std::rethrow_exception(failure);
  }
  for (halo_state* s : states) ++s->exchanges;
}

}  // namespace funcmesh::detail
