// Checks the per-node thread rule under mpirun, as a user would start a program: the MPI
// environment divides the node's cores among its ranks unless a thread variable is set.
//   thread_share_check --expect shared|rule|N [--oversubscribed yes|no|auto|any]
// shared: every rank's mask must be the same set of C CPUs and the target max(1, C / R),
// R the ranks on the node; rule: the target must be max(1, CPUs in the rank's mask / ranks
// whose masks share one of them), whatever the masks are (ranks bound to cores, on a host
// with or without SMT); N: the target must be N. auto: oversubscribed exactly when the
// node's ranks x targets exceed the C CPUs they all share. Exits non-zero (with one line
// per failing rank) when the environment decided otherwise.
#include <sched.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <funcmesh/comm/environment.hpp>
#include <funcmesh/comm/thread_share.hpp>
#include <funcmesh/exec/thread_policy.hpp>

namespace fm = funcmesh;

namespace {

std::vector<unsigned char> own_mask() {
  cpu_set_t set;
  CPU_ZERO(&set);
  sched_getaffinity(0, sizeof set, &set);
  std::vector<unsigned char> mask(CPU_SETSIZE, 0);
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    mask[static_cast<std::size_t>(cpu)] = CPU_ISSET(cpu, &set) ? 1 : 0;
  return mask;
}

}  // namespace

int main(int argc, char** argv) {
  return fm::mpi::guarded_main(argc, argv, [&](fm::mpi::environment& env) {
    std::string expect = "shared", oversubscribed = "any";
    for (int k = 1; k + 1 < argc; k += 2) {
      if (std::strcmp(argv[k], "--expect") == 0) expect = argv[k + 1];
      if (std::strcmp(argv[k], "--oversubscribed") == 0) oversubscribed = argv[k + 1];
    }
    const fm::mpi::communicator node = env.world().split_shared();
    const std::vector<unsigned char> mine = own_mask();
    std::vector<unsigned char> all(mine.size() * static_cast<std::size_t>(node.size()));
    MPI_Allgather(mine.data(), static_cast<int>(mine.size()), MPI_UNSIGNED_CHAR, all.data(),
                  static_cast<int>(mine.size()), MPI_UNSIGNED_CHAR, node.get());
    int cores = 0;
    for (unsigned char bit : mine) cores += bit;
    std::string failure;
    int expected = 0;
    if (expect == "rule") {
      // max(1, CPUs in this rank's mask / ranks on the node whose masks share one of them).
      int sharers = 0;
      for (int r = 0; r < node.size(); ++r) {
        bool shares = false;
        for (std::size_t cpu = 0; cpu < mine.size(); ++cpu) {
          shares = shares ||
                   (mine[cpu] != 0 && all[static_cast<std::size_t>(r) * mine.size() + cpu] != 0);
        }
        sharers += shares ? 1 : 0;
      }
      expected = std::max(1, cores / std::max(1, sharers));
    } else if (expect == "shared") {
      for (int r = 0; r < node.size(); ++r) {
        if (!std::equal(mine.begin(), mine.end(),
                        all.begin() + r * static_cast<long>(mine.size()))) {
          failure = "the ranks' affinity masks differ (run with --bind-to none)";
        }
      }
      expected = std::max(1, cores / node.size());
    } else {
      expected = std::stoi(expect);
    }
    const fm::mpi::thread_share& share = fm::mpi::node_thread_share();
    const int target = fm::exec::threads_target();
    if (failure.empty() && target != expected) {
      failure = "thread target " + std::to_string(target) + ", expected " +
                std::to_string(expected) + " (" + std::to_string(cores) + " CPUs in the mask, " +
                std::to_string(node.size()) + " ranks on the node)";
    }
    if (failure.empty() && share.threads != target) failure = "node_thread_share() disagrees";
    const bool over_expected =
        oversubscribed == "auto" ? target * node.size() > cores : oversubscribed == "yes";
    if (failure.empty() && oversubscribed != "any" && share.oversubscribed != over_expected) {
      failure = std::string("oversubscribed is ") + (share.oversubscribed ? "true" : "false");
    }
    int failed = failure.empty() ? 0 : 1, any = 0;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (failed != 0) std::fprintf(stderr, "[rank %d] %s\n", env.world().rank(), failure.c_str());
    if (any == 0 && env.world().rank() == 0) {
      std::printf(
          "thread_share_check: %d rank(s) on the node, %d CPU(s) in rank 0's mask, "
          "target %d, %s, %s\n",
          node.size(), cores, target, share.user_set ? "set by the user" : "by the rule",
          share.oversubscribed ? "oversubscribed" : "not oversubscribed");
    }
    return any == 0 ? 0 : 1;
  });
}
