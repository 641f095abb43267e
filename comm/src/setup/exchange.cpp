// All-to-all of bytes in one MPI_Alltoallv when every count and displacement fits an int,
// else in rounds of at most 2^30 / ranks bytes per pair, each packed into one buffer.
#include <funcmesh/comm/detail/exchange.hpp>

#include <algorithm>
#include <climits>
#include <cstring>

#include <funcmesh/comm/mpi_error.hpp>

namespace funcmesh::setup_detail {

namespace {

// The largest run of bytes one MPI call may carry here: INT_MAX, or less in tests, which
// lower it to make the rounds' code run on small meshes.
std::size_t round_limit = static_cast<std::size_t>(INT_MAX);

int size_of(MPI_Comm comm) {
  int size = 1;
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size", comm);
  return size;
}

}  // namespace

std::vector<std::size_t> exchange_counts(MPI_Comm comm, std::span<const std::size_t> send_offsets) {
  const int ranks = size_of(comm);
  std::vector<unsigned long long> out(static_cast<std::size_t>(ranks)), in(out.size());
  for (std::size_t q = 0; q < out.size(); ++q) out[q] = send_offsets[q + 1] - send_offsets[q];
  check_mpi(MPI_Alltoall(out.data(), 1, MPI_UNSIGNED_LONG_LONG, in.data(), 1,
                         MPI_UNSIGNED_LONG_LONG, comm),
            "MPI_Alltoall (set-up counts)", comm);
  std::vector<std::size_t> offsets(in.size() + 1, 0);
  for (std::size_t q = 0; q < in.size(); ++q) offsets[q + 1] = offsets[q] + in[q];
  return offsets;
}

void exchange_payload(MPI_Comm comm, std::span<const std::byte> send,
                      std::span<const std::size_t> send_offsets, std::byte* receive,
                      std::span<const std::size_t> receive_offsets) {
  const int ranks = size_of(comm);
  const auto n = static_cast<std::size_t>(ranks);
  unsigned long long largest = std::max(send_offsets[n], receive_offsets[n]);
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm),
            "MPI_Allreduce (set-up sizes)", comm);
  std::vector<int> sc(n), sd(n), rc(n), rd(n);
  if (largest <= round_limit) {
    for (std::size_t q = 0; q < n; ++q) {
      sc[q] = static_cast<int>(send_offsets[q + 1] - send_offsets[q]);
      sd[q] = static_cast<int>(send_offsets[q]);
      rc[q] = static_cast<int>(receive_offsets[q + 1] - receive_offsets[q]);
      rd[q] = static_cast<int>(receive_offsets[q]);
    }
    check_mpi(MPI_Alltoallv(send.data(), sc.data(), sd.data(), MPI_BYTE, receive, rc.data(),
                            rd.data(), MPI_BYTE, comm),
              "MPI_Alltoallv (set-up)", comm);
    return;
  }
  // Rounds: every rank takes part in each, sending empty runs once its own are done.
  const std::size_t chunk =
      std::max<std::size_t>(1, std::min(std::size_t{1} << 30, round_limit / 2) / n);
  std::vector<std::size_t> sent(n, 0), got(n, 0);
  std::vector<std::byte> out, in;
  for (;;) {
    unsigned long long left = 0;
    for (std::size_t q = 0; q < n; ++q) {
      left += send_offsets[q + 1] - send_offsets[q] - sent[q];
      left += receive_offsets[q + 1] - receive_offsets[q] - got[q];
    }
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, &left, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm),
              "MPI_Allreduce (set-up rounds)", comm);
    if (left == 0) return;
    int out_total = 0, in_total = 0;
    for (std::size_t q = 0; q < n; ++q) {
      sc[q] = static_cast<int>(std::min(chunk, send_offsets[q + 1] - send_offsets[q] - sent[q]));
      rc[q] =
          static_cast<int>(std::min(chunk, receive_offsets[q + 1] - receive_offsets[q] - got[q]));
      sd[q] = out_total;
      rd[q] = in_total;
      out_total += sc[q];
      in_total += rc[q];
    }
    out.resize(static_cast<std::size_t>(out_total));
    in.resize(static_cast<std::size_t>(in_total));
    // (memcpy of no bytes from an empty vector's null data() is undefined: skipped.)
    for (std::size_t q = 0; q < n; ++q) {
      if (sc[q] == 0) continue;
      std::memcpy(out.data() + sd[q], send.data() + send_offsets[q] + sent[q],
                  static_cast<std::size_t>(sc[q]));
    }
    check_mpi(MPI_Alltoallv(out.data(), sc.data(), sd.data(), MPI_BYTE, in.data(), rc.data(),
                            rd.data(), MPI_BYTE, comm),
              "MPI_Alltoallv (set-up round)", comm);
    for (std::size_t q = 0; q < n; ++q) {
      if (rc[q] > 0) {
        std::memcpy(receive + receive_offsets[q] + got[q], in.data() + rd[q],
                    static_cast<std::size_t>(rc[q]));
      }
      sent[q] += static_cast<std::size_t>(sc[q]);
      got[q] += static_cast<std::size_t>(rc[q]);
    }
  }
}

std::size_t round_budget() { return std::min<std::size_t>(std::size_t{64} << 20, round_limit); }

int rounds_for(MPI_Comm comm, std::size_t bytes, std::size_t at_most_share) {
  unsigned long long largest = bytes;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm),
            "MPI_Allreduce (set-up rounds)", comm);
  std::size_t budget = round_budget();
  if (at_most_share > 1) {
    const std::size_t floor = std::min<std::size_t>(budget, std::size_t{4} << 20);
    budget = std::min(budget, std::max(floor, static_cast<std::size_t>(largest) / at_most_share));
  }
  return static_cast<int>(std::max<unsigned long long>(1, (largest + budget - 1) / budget));
}

std::size_t exchange_round_limit(std::size_t bytes) {
  const std::size_t before = round_limit;
  round_limit = std::clamp<std::size_t>(bytes, 1, static_cast<std::size_t>(INT_MAX));
  return before;
}

}  // namespace funcmesh::setup_detail
