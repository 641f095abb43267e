// An all-to-all of arrays of any size, for the parallel set-up and restart's placement by
// global id: each rank hands one contiguous array cut into per-destination runs and gets
// back one array cut by source. Internal to funcmesh (setup_detail, the set-up's name).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include <funcmesh/comm/detail/raw_vector.hpp>

namespace funcmesh::setup_detail {

// A collective all-to-all of bytes: rank q receives send[send_offsets[q], send_offsets[q + 1]).
// First the counts (returns the receive offsets by source, ranks + 1 entries), then the
// payload into `receive`. Messages past 2^31 bytes go in rounds (MPI counts are int).
std::vector<std::size_t> exchange_counts(MPI_Comm comm, std::span<const std::size_t> send_offsets);
void exchange_payload(MPI_Comm comm, std::span<const std::byte> send,
                      std::span<const std::size_t> send_offsets, std::byte* receive,
                      std::span<const std::size_t> receive_offsets);

// For tests: exchanges larger than `bytes` (instead of 2^31 - 1) go in rounds. Returns the
// previous limit.
std::size_t exchange_round_limit(std::size_t bytes);

// Collective: in how many rounds to send `bytes` (this rank's; the largest over the ranks
// decides) so that no round holds more than 64 MiB of them (less with a test's lower
// exchange_round_limit), and, with `at_most_share` > 1, no more than that share of them
// either (but 4 MiB if that is more): the send and receive buffers of a round are alive
// together, and rounds keep them a small part of the set-up's peak.
int rounds_for(MPI_Comm comm, std::size_t bytes, std::size_t at_most_share = 1);

// The bytes one round may hold: 64 MiB, or a test's lower exchange_round_limit. Also the
// budget of the set-up's local rounds (the slab's own faces matched among themselves).
std::size_t round_budget();

template <class T>
struct received {
  raw_vector<T> data;
  std::vector<std::size_t> offsets;  // by source rank, in elements
  std::span<const T> from(int rank) const {
    const auto r = static_cast<std::size_t>(rank);
    return {data.data() + offsets[r], offsets[r + 1] - offsets[r]};
  }
};

// Arrays of a trivially copyable T: send[offsets[q], offsets[q + 1]) goes to rank q.
template <class T>
received<T> exchange(MPI_Comm comm, std::span<const T> send, std::span<const std::size_t> offsets) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::vector<std::size_t> byte_offsets(offsets.begin(), offsets.end());
  for (std::size_t& o : byte_offsets) o *= sizeof(T);
  const std::vector<std::size_t> in = exchange_counts(comm, byte_offsets);
  received<T> result;
  result.data.resize(in.back() / sizeof(T));
  exchange_payload(comm, std::as_bytes(send), byte_offsets,
                   reinterpret_cast<std::byte*>(result.data.data()), in);
  result.offsets = in;
  for (std::size_t& o : result.offsets) o /= sizeof(T);
  return result;
}

// Per-destination buckets built in two passes (count, then fill), so that the send array
// is allocated once at its final size.
template <class T>
struct outbox {
  std::vector<std::size_t> offsets;  // ranks + 1
  raw_vector<T> data;
  std::vector<std::size_t> fill;

  explicit outbox(int ranks) : offsets(static_cast<std::size_t>(ranks) + 1, 0) {}
  void count(int rank, std::size_t n = 1) { offsets[static_cast<std::size_t>(rank) + 1] += n; }
  // After every count(): room for the data.
  void allocate() {
    for (std::size_t q = 1; q < offsets.size(); ++q) offsets[q] += offsets[q - 1];
    data.resize(offsets.back());
    fill.assign(offsets.begin(), offsets.end() - 1);
  }
  void put(int rank, const T& value) { data[fill[static_cast<std::size_t>(rank)]++] = value; }
  // Sends (and empties) the outbox. On one rank the data only changes hands.
  received<T> send(MPI_Comm comm) {
    received<T> result;
    if (offsets.size() == 2) {
      result.data = std::move(data);
      result.offsets = std::move(offsets);
    } else {
      result = exchange<T>(comm, std::span<const T>(data), std::span<const std::size_t>(offsets));
    }
    raw_vector<T>().swap(data);
    return result;
  }
};

}  // namespace funcmesh::setup_detail
