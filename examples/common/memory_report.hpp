// Resident memory as Linux reports it in /proc/self/status: the peak resident size
// (VmHWM, the high-water mark since the process started) and the resident size now
// (VmRSS). With --verbose the MPI examples print both for every rank, from rank 0, in MiB
// and in bytes per owned cell. Elsewhere (no /proc) the figures are -1 and print as n/a.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include <mpi.h>

namespace example {

// The field `key` ("VmHWM", "VmRSS") of /proc/self/status in bytes, or -1.
inline std::int64_t proc_status_bytes(const char* key) {
  std::FILE* status = std::fopen("/proc/self/status", "r");
  if (status == nullptr) return -1;
  std::int64_t bytes = -1;
  char line[256];
  const std::size_t length = std::strlen(key);
  while (std::fgets(line, sizeof line, status) != nullptr) {
    if (std::strncmp(line, key, length) != 0 || line[length] != ':') continue;
    long long kib = 0;
    if (std::sscanf(line + length + 1, "%lld", &kib) == 1) bytes = 1024 * kib;
    break;
  }
  std::fclose(status);
  return bytes;
}
inline std::int64_t peak_resident_bytes() { return proc_status_bytes("VmHWM"); }
inline std::int64_t resident_bytes() { return proc_status_bytes("VmRSS"); }

// One rank's figures: its peak so far, a resident size sampled at a chosen moment, and the
// cells it owns.
struct memory_figures {
  std::int64_t peak = -1;
  std::int64_t sampled = -1;
  std::int64_t cells = 0;
};

// Collective over comm: every rank's figures, on rank 0 (empty elsewhere), in rank order.
inline std::vector<memory_figures> gather_memory(MPI_Comm comm, const memory_figures& mine) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const std::int64_t sent[3] = {mine.peak, mine.sampled, mine.cells};
  std::vector<std::int64_t> all(rank == 0 ? 3 * static_cast<std::size_t>(size) : 0);
  MPI_Gather(sent, 3, MPI_INT64_T, all.data(), 3, MPI_INT64_T, 0, comm);
  std::vector<memory_figures> out;
  for (std::size_t r = 0; 3 * r < all.size(); ++r)
    out.push_back({all[3 * r], all[3 * r + 1], all[3 * r + 2]});
  return out;
}

// "512.3 MiB (746 bytes per cell)", or "n/a".
inline void describe_memory(char* text, std::size_t capacity, std::int64_t bytes,
                            std::int64_t cells) {
  if (bytes < 0) {
    std::snprintf(text, capacity, "n/a");
  } else if (cells > 0) {
    std::snprintf(text, capacity, "%.1f MiB (%.0f bytes per cell)",
                  static_cast<double>(bytes) / (1024.0 * 1024.0),
                  static_cast<double>(bytes) / static_cast<double>(cells));
  } else {
    std::snprintf(text, capacity, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  }
}

// Collective over comm: rank 0 prints one line per rank,
//   "<program>: memory rank R: peak P MiB (B bytes per cell), <label> S MiB (B bytes per
//   cell), N owned cells"
// with the peak read now and `sampled` the resident size the caller read earlier.
inline void print_memory(MPI_Comm comm, const char* program, const char* label,
                         std::int64_t sampled, std::int64_t owned_cells) {
  const memory_figures mine{peak_resident_bytes(), sampled, owned_cells};
  const std::vector<memory_figures> all = gather_memory(comm, mine);
  for (std::size_t r = 0; r < all.size(); ++r) {
    char peak[96], now[96];
    describe_memory(peak, sizeof peak, all[r].peak, all[r].cells);
    describe_memory(now, sizeof now, all[r].sampled, all[r].cells);
    std::printf("%s: memory rank %zu: peak %s, %s %s, %lld owned cells\n", program, r, peak, label,
                now, static_cast<long long>(all[r].cells));
  }
  if (!all.empty()) std::fflush(stdout);
}

}  // namespace example
