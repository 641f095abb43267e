// The halo steps of distributed assignments: the reads' layout check, the local dirty-bit
// decision and its optional cross-rank check, and one exchange round for the dirty halos
// (each half of a round a profile region of its own, with the bytes it sends).
#include <funcmesh/comm/halo_state.hpp>

#include <algorithm>
#include <climits>
#include <exception>
#include <string>

#include <funcmesh/comm/collective_error.hpp>
#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/comm/spmd_check.hpp>
#include <funcmesh/profile/device_activity.hpp>
#include <funcmesh/profile/hooks.hpp>
#include <funcmesh/profile/scope.hpp>

namespace funcmesh::detail {

void halo_reads::add(halo_state* state) {
  for (std::size_t k = 0; k < count_; ++k) {
    if ((*this)[k] == state) return;
  }
  if (count_ < first_.size()) {
    first_[count_] = state;
  } else {
    more_.push_back(state);
  }
  ++count_;
}

void halo_reads::keep_dirty() {
  // In place: an entry moves only to a position before it.
  std::size_t kept = 0;
  for (std::size_t k = 0; k < count_; ++k) {
    if ((*this)[k]->stale()) slot(kept++) = (*this)[k];
  }
  count_ = kept;
  more_.resize(kept > first_.size() ? kept - first_.size() : 0);
}

void refuse_mixed_layouts(const distributed_layout& layout, const std::string& reader,
                          const grid_read& read, const char* call) {
  throw error(std::string(call) + ": " + reader + " on " + layout.describe() + " reads " +
              read.describe() + " of another distributed layout, " +
              halo_state::of(read)->layout().describe() +
              ": the functions of one expression must share one layout (distribute once and "
              "make every function from that layout)");
}

namespace {

// Compares every rank's dirty decisions with one allreduce (MPI_MIN of "lowest rank that
// failed", then per read of "lowest rank that finds it dirty" and "lowest rank that finds
// it clean") and throws the same collective_error on every rank where any rank failed or
// the decisions differ. On the halo plan's own communicator: it can never pair with a
// reduction a peer makes on the layout's.
void check_decisions(const distributed_layout& layout, const halo_reads& reads,
                     const std::exception_ptr& local_failure, const char* call) {
  const std::size_t n = reads.size();
  const int rank = layout.rank();
  std::vector<int> lowest(1 + 2 * n);
  lowest[0] = local_failure ? rank : INT_MAX;
  for (std::size_t k = 0; k < n; ++k) {
    const bool dirty = reads[k]->stale();
    lowest[1 + 2 * k] = dirty ? rank : INT_MAX;
    lowest[2 + 2 * k] = dirty ? INT_MAX : rank;
  }
  const MPI_Comm comm = layout.exchange_plan().comm();
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, lowest.data(), static_cast<int>(lowest.size()), MPI_INT,
                          MPI_MIN, comm),
            "MPI_Allreduce (FUNCMESH_CHECK_SPMD)", comm);
  // Some rank failed: every rank throws its message (agree sends it from the lowest).
  if (lowest[0] != INT_MAX) mpi::agree(mpi::communicator(comm), local_failure);
  for (std::size_t k = 0; k < n; ++k) {
    const int first_dirty = lowest[1 + 2 * k], first_clean = lowest[2 + 2 * k];
    if (first_dirty == INT_MAX || first_clean == INT_MAX) continue;
    // One of the two is rank 0; the other is the lowest rank that disagrees with it.
    const int disagreeing = std::max(first_dirty, first_clean);
    const bool dirty_at_0 = first_dirty == 0;
    throw mpi::collective_error(
        disagreeing,
        std::string(call) + ": the ranks disagree whether the halo of " + reads[k]->describe() +
            " is dirty (rank 0: " + (dirty_at_0 ? "written since its last exchange" : "clean") +
            "; rank " + std::to_string(disagreeing) +
            ", the lowest that disagrees: " + (dirty_at_0 ? "clean" : "written") +
            "). Every rank must run the same assignments on the same distributed functions; "
            "after a host write on only some ranks, call mark_halo_stale() on every rank "
            "(FUNCMESH_CHECK_SPMD found this; without the check it would hang)");
  }
}

}  // namespace

void keep_dirty(const distributed_layout& layout, halo_reads& reads, const char* call,
                std::exception_ptr local_failure, bool always_check) {
  if (spmd_check_enabled() && (always_check || !reads.empty())) {
    check_decisions(layout, reads, local_failure, call);
  } else if (local_failure) {
    std::rethrow_exception(local_failure);
  }
  reads.keep_dirty();
}

namespace {

// "halo exchange of 'u'" ("of 'u', 'v'" for a round of several), then `suffix`: built
// only while profiling.
profile::region round_region(const halo_reads& dirty, const char* suffix) {
  std::string text = "halo exchange of ";
  for (std::size_t k = 0; k < dirty.size(); ++k) {
    if (k > 0) text += ", ";
    const halo_source& values = dirty[k]->source();
    const std::string& name = values.name();
    text += name.empty() ? values.describe() : "'" + name + "'";
  }
  text += suffix;
  return profile::named(text);
}

// What this rank sends in one round: every neighbour's send list, once per field.
std::uint64_t round_bytes(const distributed_layout& layout, const halo_reads& dirty) {
  std::uint64_t cells = 0;
  for (const neighbour_lists& n : layout.mesh().neighbours) cells += n.send.size();
  std::uint64_t per_cell = 0;
  for (std::size_t k = 0; k < dirty.size(); ++k) per_cell += dirty[k]->element_size();
  return cells * per_cell;
}

// The device activity of a round (its packing, staging copies, unpacking) counts under
// "halo exchange of <the first field>".
exec::loop_label activity_label(const halo_reads& dirty) {
  return exec::loop_label{"halo exchange of",
                          dirty.size() > 0 ? &dirty[0]->source().name() : nullptr, 1};
}

void start_round(const distributed_layout& layout, const halo_reads& dirty, const executor& on) {
  const exec::loop_label label = activity_label(dirty);
  const device_activity_scope activity(label);
  // A few fields inline, more on the heap.
  std::array<halo_field, 6> few{};
  std::vector<halo_field> many(dirty.size() > few.size() ? dirty.size() : 0);
  const std::span<halo_field> fields =
      many.empty() ? std::span<halo_field>(few.data(), dirty.size()) : std::span<halo_field>(many);
  for (std::size_t k = 0; k < dirty.size(); ++k) {
    fields[k] = dirty[k]->field();
  }
  layout.exchange_plan().begin(fields, on);
  for (std::size_t k = 0; k < dirty.size(); ++k) dirty[k]->mark_exchanged();
}

void finish_round(const distributed_layout& layout, const halo_reads& dirty, const executor& on,
                  token* holder) {
  const exec::loop_label label = activity_label(dirty);
  const device_activity_scope activity(label);
  halo_plan& plan = layout.exchange_plan();
  try {
    if (plan.in_flight()) {
      if (holder != nullptr) {
        plan.end(on, *holder);
      } else {
        plan.end(on);
      }
    }
  } catch (...) {
    // Some halos were not filled: dirty again, so the next read does not trust them.
    for (std::size_t k = 0; k < dirty.size(); ++k) dirty[k]->mark_stale();
    throw;
  }
  for (std::size_t k = 0; k < dirty.size(); ++k) dirty[k]->count_exchange();
}

}  // namespace

// Profiled, the start (pack and send) and the end (wait and unpack) are two regions, so
// that the work overlapped between them counts in neither, and the wait, where ranks that
// arrive early lose their time, has a row of its own.
void begin_round(const distributed_layout& layout, const halo_reads& dirty, const executor& on) {
  if (profile::active()) [[unlikely]] {
    const profile::scope profiled(round_region(dirty, ""));
    profile::bytes_sent(profiled.where(), round_bytes(layout, dirty));
    return start_round(layout, dirty, on);
  }
  start_round(layout, dirty, on);
}

void end_round(const distributed_layout& layout, const halo_reads& dirty, const executor& on,
               token* holder) {
  if (profile::active()) [[unlikely]] {
    const profile::scope profiled(round_region(dirty, " (wait)"));
    return finish_round(layout, dirty, on, holder);
  }
  finish_round(layout, dirty, on, holder);
}

void exchange_dirty(const distributed_layout& layout, halo_reads& reads, const executor& on,
                    const char* call) {
  keep_dirty(layout, reads, call);
  if (reads.empty()) return;
  begin_round(layout, reads, on);
  end_round(layout, reads, on);
}

}  // namespace funcmesh::detail
