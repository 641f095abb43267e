// bench/halo section 1: MPI latency and bandwidth against message size, pingpong and the
// halo pattern (both ranks sending at once through persistent requests), ranks 0 and 1.
#include "halo_bench.hpp"

#include <cstddef>
#include <cstdio>
#include <vector>

namespace halo_bench {

// ---- 1. latency and bandwidth against message size (ranks 0 and 1) ----

void message_sizes(MPI_Comm world, int rank, int size) {
  if (rank == 0) std::printf("== 1. point-to-point, ranks 0 <-> 1 (medians of 11 rounds)\n");
  if (size < 2) {
    if (rank == 0) std::printf("   needs 2 ranks: skipped\n\n");
    return;
  }
  std::vector<std::size_t> bytes;
  for (std::size_t b = 8; b <= (std::size_t{16} << 20); b *= 4) bytes.push_back(b);
  bytes.push_back(std::size_t{16} << 20);  // 8 * 4^k stops at 8 MB
  const std::size_t largest = bytes.back();
  std::vector<char> out(largest, 1), in(largest, 0);
  const int rounds = 11;
  std::vector<std::vector<double>> pingpong(bytes.size()), exchange(bytes.size());
  if (rank < 2) {
    MPI_Comm pair = MPI_COMM_NULL;
    MPI_Comm_split(world, 0, rank, &pair);
    const int peer = 1 - rank;
    for (int r = 0; r < rounds; ++r) {
      for (std::size_t k = 0; k < bytes.size(); ++k) {
        const int n = static_cast<int>(bytes[k]);
        const int iterations =
            static_cast<int>(std::clamp<std::size_t>((std::size_t{4} << 20) / bytes[k], 4, 200));
        // Ping-pong: one-way time is half the round trip.
        MPI_Barrier(pair);
        double start = now();
        for (int i = 0; i < iterations; ++i) {
          if (rank == 0) {
            MPI_Send(out.data(), n, MPI_CHAR, peer, 1, pair);
            MPI_Recv(in.data(), n, MPI_CHAR, peer, 1, pair, MPI_STATUS_IGNORE);
          } else {
            MPI_Recv(in.data(), n, MPI_CHAR, peer, 1, pair, MPI_STATUS_IGNORE);
            MPI_Send(out.data(), n, MPI_CHAR, peer, 1, pair);
          }
        }
        pingpong[k].push_back((now() - start) / (2.0 * iterations));
        // The halo pattern: both ranks send and receive at once, persistent requests.
        MPI_Request requests[2];
        MPI_Recv_init(in.data(), n, MPI_CHAR, peer, 2, pair, &requests[0]);
        MPI_Send_init(out.data(), n, MPI_CHAR, peer, 2, pair, &requests[1]);
        MPI_Barrier(pair);
        start = now();
        for (int i = 0; i < iterations; ++i) {
          MPI_Startall(2, requests);
          MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
        }
        exchange[k].push_back(max_over(pair, (now() - start) / iterations));
        MPI_Request_free(&requests[0]);
        MPI_Request_free(&requests[1]);
      }
    }
    MPI_Comm_free(&pair);
  } else {
    MPI_Comm unused = MPI_COMM_NULL;
    MPI_Comm_split(world, MPI_UNDEFINED, rank, &unused);
  }
  if (rank == 0) {
    std::printf("   %10s | %12s %8s | %14s %8s\n", "bytes", "pingpong us", "GB/s", "exchange us",
                "GB/s");
    for (std::size_t k = 0; k < bytes.size(); ++k) {
      const double p = median(pingpong[k]), e = median(exchange[k]);
      const double b = static_cast<double>(bytes[k]);
      std::printf("   %10zu | %12.2f %8.3f | %14.2f %8.3f\n", bytes[k], p * 1e6, b / p * 1e-9,
                  e * 1e6, b / e * 1e-9);
    }
    std::printf(
        "   (pingpong: one way = round trip / 2; exchange: both ranks send and receive\n"
        "    at once with persistent requests, GB/s per direction)\n\n");
  }
  idle_barrier(world);
}

}  // namespace halo_bench
