// MPI profiling wrappers that count started persistent sends (message_counter.hpp). A
// request handle is reused by MPI once freed, so a freed send request is forgotten: a
// receive that gets its handle later is not counted.
#include "message_counter.hpp"

#include <mpi.h>

#include <atomic>
#include <mutex>

namespace message_counter {
namespace {
std::mutex guard;
std::atomic<std::uint64_t> count{0};
std::map<MPI_Request, int>& sends() {  // live persistent send requests, to their destination
  static std::map<MPI_Request, int> map;
  return map;
}
std::map<int, std::uint64_t>& started() {
  static std::map<int, std::uint64_t> map;
  return map;
}
// Counts the requests of `requests` that are sends (before starting them: a start does not
// change the handle).
void note_started(int n, const MPI_Request* requests) {
  const std::lock_guard lock(guard);
  for (int k = 0; k < n; ++k) {
    const auto send = sends().find(requests[k]);
    if (send == sends().end()) continue;
    ++count;
    ++started()[send->second];
  }
}
}  // namespace

std::uint64_t total() { return count.load(); }
std::map<int, std::uint64_t> by_destination() {
  const std::lock_guard lock(guard);
  return started();
}

}  // namespace message_counter

// The signatures are mpi.h's (Open MPI 4.1, MPI-3 const-correct); C linkage comes from its
// declarations.
int MPI_Send_init(const void* b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c,
                  MPI_Request* q) {
  const int code = PMPI_Send_init(b, n, t, dest, tag, c, q);
  if (code == MPI_SUCCESS) {
    const std::lock_guard lock(message_counter::guard);
    message_counter::sends()[*q] = dest;
  }
  return code;
}
int MPI_Start(MPI_Request* q) {
  message_counter::note_started(1, q);
  return PMPI_Start(q);
}
int MPI_Startall(int n, MPI_Request q[]) {
  message_counter::note_started(n, q);
  return PMPI_Startall(n, q);
}
int MPI_Request_free(MPI_Request* q) {
  {
    const std::lock_guard lock(message_counter::guard);
    message_counter::sends().erase(*q);
  }
  return PMPI_Request_free(q);
}
