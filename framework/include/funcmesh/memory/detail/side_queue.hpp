// side_queue: device work beside the rank's main queue (CUDA: its second stream). Halo
// staging issues its copies of the packed bytes to the host there, so that the loops
// launched after them (a distributed assignment's interior) run beside them; the host
// joins the queue before it hands the bytes to MPI. Internal to funcmesh.
#pragma once

#include <cstddef>

#include <funcmesh/memory/memory_space.hpp>

namespace funcmesh::detail {

class side_queue {
 public:
  // Forks the side queue of `space`'s device: it runs after everything issued so far on
  // `after` (an executor's stream; nullptr: the main queue; memory_manager::
  // fork_side_queue). A space without one (the host; a kind that has none) gives a queue
  // whose copies are made at once.
  explicit side_queue(memory_space space, void* after = nullptr);
  // Joins a queue not yet joined (errors cannot be reported here: a failure to join is
  // left for the next synchronisation to find).
  ~side_queue();
  side_queue(const side_queue&) = delete;
  side_queue& operator=(const side_queue&) = delete;

  // Issues a copy of `bytes` device bytes of the queue's space to `host_destination`,
  // there once join() returns. Counted as a copy to the host, with no wait of its own.
  void copy_to_host(void* host_destination, const void* source, std::size_t bytes);
  // The host waits for everything issued on the queue (one synchronisation, counted).
  // Throws device_error naming `why`. Later calls do nothing.
  void join(const char* why);

 private:
  memory_space space_;
  void* handle_ = nullptr;  // the kind's (CUDA: a cudaStream_t); nullptr where it has none
  bool joined_ = false;
};

}  // namespace funcmesh::detail
