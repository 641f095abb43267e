// halo_messages: the messages of one kind of halo round (a distinct field set) — each
// field's packed buffers, and per neighbour ONE persistent send and receive over all of
// them (an MPI derived datatype across the fields' buffers), kept from round to round.
// Internal to halo_plan.cpp.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <funcmesh/comm/detail/halo_tags.hpp>
#include <funcmesh/core/index.hpp>
#include <funcmesh/memory/buffer.hpp>
#include <funcmesh/memory/detail/side_queue.hpp>
#include <funcmesh/memory/memory_space.hpp>
#include <funcmesh/memory/token.hpp>

namespace funcmesh::detail {

// What makes two rounds' messages the same: per field, its bytes per value and the memory
// space MPI reads and writes its bytes in (the host for bytes packed on the host).
struct halo_field_key {
  std::size_t element_size = 0;
  memory_space transfer;
  friend bool operator==(const halo_field_key&, const halo_field_key&) = default;
};

// The plan's lists as the messages see them: neighbour k's cells are
// [offset[k], offset[k + 1]) of the concatenated send and receive lists.
struct halo_message_lists {
  MPI_Comm comm;
  std::span<const int> neighbours;
  std::span<const index_t> send_offset;
  std::span<const index_t> receive_offset;
};

struct halo_message_set {
  // Buffers sized for `key` (send_values, receive_values: the lists' lengths).
  halo_message_set(std::vector<halo_field_key> key, bool per_field, index_t send_values,
                   index_t receive_values);

  std::vector<halo_field_key> key;
  // One message per field (the behaviour before messages were aggregated; a testing switch,
  // for benchmarks): each field is its own group.
  bool per_field = false;
  // Fields that travel together: one message per neighbour and group, its tag from
  // halo_tags (the round's parity, the group count, the group, the message's bytes).
  // Aggregated, a group is every field of one transfer space: a single message unless a
  // GPU-aware MPI moves device and host-packed fields in one round (one message cannot
  // span both kinds of memory).
  std::vector<std::vector<std::size_t>> groups;
  std::vector<buffer> send;  // per field, packed in the order of the send list
  std::vector<buffer> receive;
  std::vector<char> packed;  // per field: its packing of the round in flight succeeded
  // Persistent requests are bound to addresses: re-created when a transfer copy moves.
  std::vector<const void*> send_at;
  std::vector<const void*> receive_at;
  // Per parity of the plan's round count (a tag is fixed when a persistent request is made):
  // every receive (group-major), then every send.
  std::vector<MPI_Request> requests;
  // The round's statuses, filled by whichever call completes it (a progress call's
  // MPI_Testall or the end's completion: completing again would overwrite them with empty
  // ones); `complete` says the round in flight is; `parity` is its round count's.
  std::vector<MPI_Status> statuses;
  bool complete = false;
  unsigned parity = 0;
  std::vector<int> receive_bytes;   // per receive request: what the peer's send must carry
  std::vector<MPI_Datatype> types;  // committed; live as long as the requests using them
  token holder;                     // keeps every transfer copy in place while a round is in flight
  std::uint64_t last_use = 0;       // for the plan's least-recently-used eviction
  // A device round's staging copies, issued on the device's side queue by begin (after
  // the packing) and joined when the messages start. Last: destroyed (joined) before the buffers.
  std::optional<side_queue> staging;

  std::size_t sends() const { return requests.size() / 4; }
  // The requests of the round in flight (those of its parity): receives, then sends.
  std::span<MPI_Request> round_requests() {
    const std::size_t n = requests.size() / 2;
    return std::span<MPI_Request>(requests).subspan(parity * n, n);
  }
  // The most groups a set of this kind has (one per field under the testing switch).
  static int max_groups(bool per_field) { return per_field ? 64 : 2; }
  // Takes every buffer's transfer pointer (with `holder`) and re-creates the requests and
  // types if any moved or none exist. Throws mpi_error: MPI_ERR_COUNT for a message of
  // more than INT_MAX bytes, or the failing MPI call's code.
  void prepare(const halo_message_lists& lists, const halo_tags& tags);
  void free_requests() noexcept;
};

}  // namespace funcmesh::detail
