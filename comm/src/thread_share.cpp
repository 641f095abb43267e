// The per-node thread rule: affinity masks gathered among the ranks of a node, each rank's
// share of the CPUs it may run on, and the oversubscription check.
#include <funcmesh/comm/thread_share.hpp>

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/core/settings.hpp>
#include <funcmesh/exec/thread_policy.hpp>

namespace funcmesh::mpi {

namespace {

constexpr int mask_words = CPU_SETSIZE / 64;
using cpu_mask = std::vector<std::uint64_t>;

// This process's affinity mask as words; all online CPUs when the call fails.
cpu_mask own_mask() {
  cpu_mask mask(mask_words, 0);
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &set)) mask[static_cast<std::size_t>(cpu / 64)] |= 1ULL << (cpu % 64);
    }
    return mask;
  }
  const long online = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
  for (long cpu = 0; cpu < std::min<long>(online, CPU_SETSIZE); ++cpu) {
    mask[static_cast<std::size_t>(cpu / 64)] |= 1ULL << (cpu % 64);
  }
  return mask;
}

int count(const std::uint64_t* mask) {
  int n = 0;
  for (int w = 0; w < mask_words; ++w) n += __builtin_popcountll(mask[w]);
  return n;
}

bool intersect(const std::uint64_t* a, const std::uint64_t* b) {
  for (int w = 0; w < mask_words; ++w) {
    if ((a[w] & b[w]) != 0) return true;
  }
  return false;
}

thread_share decided;

}  // namespace

bool threads_variables_set() { return settings::get().threads_chosen(); }

thread_share share_node_cores(MPI_Comm comm, bool threads_variables_set) {
  const communicator node = communicator(comm).split_shared();
  const int ranks = node.size();
  thread_share share;
  share.user_set = threads_variables_set;
  // Each rank's mask, then its threads when the user chose them (0: the rule decides; a
  // chosen 0, never split, runs 1 thread).
  cpu_mask mine = own_mask();
  const int chosen = share.user_set ? std::max(1, exec::threads_target()) : 0;
  mine.push_back(static_cast<std::uint64_t>(chosen));
  const std::size_t row = mine.size();
  std::vector<std::uint64_t> all(row * static_cast<std::size_t>(ranks));
  check_mpi(MPI_Allgather(mine.data(), static_cast<int>(row), MPI_UINT64_T, all.data(),
                          static_cast<int>(row), MPI_UINT64_T, node.get()),
            "MPI_Allgather (affinity masks)", node.get());
  auto mask_of = [&](int r) { return all.data() + static_cast<std::size_t>(r) * row; };
  // Every rank applies the rule to every rank of its node, so each knows its sharers' threads.
  auto sharers_of = [&](int r) {
    int n = 0;
    for (int s = 0; s < ranks; ++s) n += intersect(mask_of(r), mask_of(s)) ? 1 : 0;
    return std::max(1, n);
  };
  auto threads_of = [&](int r) {
    const std::uint64_t chosen = mask_of(r)[mask_words];
    if (chosen > 0) return static_cast<int>(chosen);
    return std::max(1, count(mask_of(r)) / sharers_of(r));
  };
  const int me = node.rank();
  share.cores = count(mask_of(me));
  share.sharing_ranks = sharers_of(me);
  share.threads = share.user_set ? exec::threads_target() : threads_of(me);
  cpu_mask shared(mask_words, 0);
  share.shared_threads = 0;
  for (int s = 0; s < ranks; ++s) {
    if (!intersect(mask_of(me), mask_of(s))) continue;
    for (int w = 0; w < mask_words; ++w) shared[static_cast<std::size_t>(w)] |= mask_of(s)[w];
    share.shared_threads += threads_of(s);
  }
  share.shared_cores = count(shared.data());
  int over = share.shared_threads > share.shared_cores ? 1 : 0;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &over, 1, MPI_INT, MPI_MAX, comm),
            "MPI_Allreduce (oversubscription)", comm);
  share.oversubscribed = over != 0;
  if (!share.user_set) exec::set_threads_target(share.threads);
  decided = share;
  return share;
}

std::string oversubscription_note(const thread_share& share) {
  if (!share.oversubscribed) return {};
  const bool here = share.shared_threads > share.shared_cores;
  std::string line = "funcmesh: oversubscribed: ";
  if (here) {
    line += std::to_string(share.sharing_ranks) + " rank(s) x " + std::to_string(share.threads) +
            " thread(s) share " + std::to_string(share.shared_cores) + " core(s)";
  } else {
    line += "on some node, ranks x threads exceed the cores they share";
  }
  if (share.user_set) {
    line +=
        "; set OMP_NUM_THREADS (or FUNCMESH_THREADS_TARGET) to at most cores / ranks per "
        "node, or leave both unset and funcmesh divides the cores among the ranks";
  } else {
    line += "; run at most one rank per core (fewer ranks per node)";
  }
  return line;
}

const thread_share& node_thread_share() { return decided; }

}  // namespace funcmesh::mpi
