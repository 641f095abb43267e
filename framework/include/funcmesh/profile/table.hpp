// The FUNCMESH_PROFILE table: a set of hooks (hooks.hpp) that counts and times every region
// and prints, at exit, one row per label: calls, time, load imbalance over ranks, halo bytes.
// Under MPI, comm's environment reduces the ranks' entries to rank 0 before MPI_Finalize.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <funcmesh/profile/hooks.hpp>

namespace funcmesh::profile {

// One region's totals in one process.
struct table_entry {
  std::string name;
  std::uint64_t calls = 0;
  double seconds = 0;  // inclusive: loops nested inside count in the outer region too
  std::uint64_t bytes = 0;
  // Device activity under this label (profile/device_activity.hpp): kernel launches, host
  // synchronisations, copies host -> device and device -> host.
  std::uint64_t launches = 0;
  std::uint64_t synchronizations = 0;
  std::uint64_t copies_from_host = 0;
  std::uint64_t copies_to_host = 0;
};

// The hooks behind the table (std::chrono::steady_clock; each thread keeps its own stack of
// start times, the totals are shared under a lock). Installed at start-up by
// FUNCMESH_PROFILE=1; set_hooks(table_hooks()) brings them back after another tool's.
hooks table_hooks();

// Whether FUNCMESH_PROFILE=1 asked for the table (read once, at start-up).
bool table_requested();

// This process's entries so far (regions that ran or sent bytes), in region id order.
std::vector<table_entry> table_entries();
// The table is printed by the caller (comm's environment, after reducing the ranks): no
// table at exit from this process.
void table_taken();

// "funcmesh profile (N ranks)" and one row per name over `per_rank` (entry lists, one per
// rank; a name missing on a rank counts zero there), sorted by total time, descending:
//   label | calls (max over ranks) | total s (mean over ranks) | mean us (per call, all
//   ranks) | max/mean (of the ranks' times) | halo bytes (sent, all ranks); where a device
//   ran loops, four more, summed over ranks: launches | syncs | h->d | d->h (copies)
std::string format_table(const std::vector<std::vector<table_entry>>& per_rank);

// Entries as bytes and back, for sending them to another process.
std::string encode_entries(const std::vector<table_entry>& entries);
std::vector<table_entry> decode_entries(std::string_view bytes);

}  // namespace funcmesh::profile
