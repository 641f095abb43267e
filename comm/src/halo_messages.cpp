// The messages of one kind of halo round: per neighbour and group one persistent send and
// receive, over every field's packed bytes at once.
#include "halo_messages.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include <funcmesh/comm/mpi_error.hpp>

namespace funcmesh::detail {

namespace {

// Where one neighbour's bytes of one field begin, and how many there are.
struct message_block {
  std::byte* at;
  std::size_t bytes;
};

// Refuses a message that an int count of bytes cannot describe (MPI's counts are ints).
int checked_message_bytes(std::size_t bytes, MPI_Comm comm) {
  if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw mpi_error(
        MPI_ERR_COUNT,
        mpi_failure_message(MPI_ERR_COUNT, "halo message of " + std::to_string(bytes) + " bytes",
                            comm));
  }
  return static_cast<int>(bytes);
}

// The persistent sends or receives of `blocks` to or from `peer`, one per tag (the round
// parities'), over one datatype. A single block goes as a count of bytes; several as one
// element of an hindexed type whose displacements are relative to the first block (not to
// MPI_BOTTOM), so that the buffer MPI sees is a real pointer into the transfer space: a
// CUDA-aware MPI recognises device memory by it. `bytes` is the blocks' total
// (message_bytes).
void init_message(std::span<const message_block> blocks, int bytes, bool sending, int peer,
                  std::span<const int> tags, MPI_Comm comm, std::span<MPI_Request* const> requests,
                  std::vector<MPI_Datatype>& types) {
  MPI_Datatype type = MPI_BYTE;
  int count = bytes;
  if (blocks.size() > 1) {
    std::vector<int> lengths;
    std::vector<MPI_Aint> displacements;
    MPI_Aint first = 0;
    check_mpi(MPI_Get_address(blocks[0].at, &first), "MPI_Get_address", comm);
    for (const auto& b : blocks) {
      MPI_Aint address = 0;
      check_mpi(MPI_Get_address(b.at, &address), "MPI_Get_address", comm);
      lengths.push_back(static_cast<int>(b.bytes));  // at most `bytes`: fits
      displacements.push_back(MPI_Aint_diff(address, first));
    }
    check_mpi(MPI_Type_create_hindexed(static_cast<int>(blocks.size()), lengths.data(),
                                       displacements.data(), MPI_BYTE, &type),
              "MPI_Type_create_hindexed", comm);
    types.push_back(type);  // freed with the set's requests, even if the commit fails
    check_mpi(MPI_Type_commit(&type), "MPI_Type_commit", comm);
    count = 1;
  }
  for (std::size_t p = 0; p < tags.size(); ++p) {
    if (sending) {
      check_mpi(MPI_Send_init(blocks[0].at, count, type, peer, tags[p], comm, requests[p]),
                "MPI_Send_init", comm);
    } else {
      check_mpi(MPI_Recv_init(blocks[0].at, count, type, peer, tags[p], comm, requests[p]),
                "MPI_Recv_init", comm);
    }
  }
}

int message_bytes(std::span<const message_block> blocks, MPI_Comm comm) {
  std::size_t total = 0;
  for (const auto& b : blocks) total += b.bytes;
  return checked_message_bytes(total, comm);
}

}  // namespace

halo_message_set::halo_message_set(std::vector<halo_field_key> fields, bool one_per_field,
                                   index_t send_values, index_t receive_values)
    : key(std::move(fields)), per_field(one_per_field), packed(key.size(), 0) {
  for (std::size_t i = 0; i < key.size(); ++i) {
    const std::size_t size = key[i].element_size;
    send.emplace_back(static_cast<std::size_t>(send_values) * size);
    receive.emplace_back(static_cast<std::size_t>(receive_values) * size);
    // Fields of one transfer space share a message, in the round's order.
    auto same = std::ranges::find_if(groups, [&](const std::vector<std::size_t>& g) {
      return key[g.front()].transfer == key[i].transfer;
    });
    if (per_field || same == groups.end()) {
      groups.push_back({i});
    } else {
      same->push_back(i);
    }
  }
  send_at.assign(key.size(), nullptr);
  receive_at.assign(key.size(), nullptr);
}

void halo_message_set::prepare(const halo_message_lists& lists, const halo_tags& tags) {
  // The send copies are read after packing; the receive copies are overwritten by MPI (so
  // no stale contents are copied into the transfer space first).
  bool moved = requests.empty();
  for (std::size_t i = 0; i < key.size(); ++i) {
    const void* s = send[i].read_pointer(key[i].transfer, holder);
    const void* r = receive[i].overwrite_pointer(key[i].transfer, holder);
    moved = moved || s != send_at[i] || r != receive_at[i];
    send_at[i] = s;
    receive_at[i] = r;
  }
  if (!moved) return;
  free_requests();
  const std::size_t n = lists.neighbours.size();
  const std::size_t messages = groups.size() * n;
  const int group_count = static_cast<int>(groups.size());
  try {
    requests.assign(4 * messages, MPI_REQUEST_NULL);
    statuses.resize(2 * messages);
    receive_bytes.assign(messages, 0);
    std::vector<message_block> blocks;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      for (std::size_t k = 0; k < n; ++k) {
        for (const bool sending : {false, true}) {
          const auto offsets = sending ? lists.send_offset : lists.receive_offset;
          const auto first = static_cast<std::size_t>(offsets[k]);
          const auto values = static_cast<std::size_t>(offsets[k + 1]) - first;
          blocks.clear();
          for (std::size_t i : groups[g]) {
            // MPI_Send_init takes a non-const buffer in older MPI headers.
            auto* base =
                static_cast<std::byte*>(const_cast<void*>(sending ? send_at[i] : receive_at[i]));
            const std::size_t size = key[i].element_size;
            blocks.push_back({base + first * size, values * size});
          }
          const std::size_t r = g * n + k;
          const int bytes = message_bytes(blocks, lists.comm);
          if (!sending) receive_bytes[r] = bytes;
          // The size is in the tag: a peer's message of another size matches no receive.
          const auto tag = [&](unsigned p) {
            return tags.encode(p, group_count, static_cast<int>(g),
                               static_cast<std::size_t>(bytes));
          };
          const std::size_t at = (sending ? messages : 0) + r;
          const int both_tags[] = {tag(0), tag(1)};
          MPI_Request* const both_requests[] = {&requests[at], &requests[2 * messages + at]};
          init_message(blocks, bytes, sending, lists.neighbours[k], both_tags, lists.comm,
                       both_requests, types);
        }
      }
    }
  } catch (...) {
    free_requests();  // none is active yet: the next prepare starts again
    throw;
  }
}

void halo_message_set::free_requests() noexcept {
  for (auto& r : requests) {
    if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
  }
  requests.clear();
  // After the requests that use them: a persistent request refers to its type until freed.
  for (auto& t : types) MPI_Type_free(&t);
  types.clear();
}

}  // namespace funcmesh::detail
