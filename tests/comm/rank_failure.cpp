// A job in which one rank throws mid-run while the others wait for it: the job must end
// non-zero within seconds, naming the rank. Modes: "guarded" (default; the exception
// reaches guarded_main) and "terminate" (it escapes a worker thread, so the
// environment's std::terminate handler aborts the job).
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string_view>
#include <thread>

#include <funcmesh/comm/environment.hpp>

int main(int argc, char** argv) {
  const bool terminate_mode = argc > 1 && std::string_view(argv[1]) == "terminate";
  return funcmesh::mpi::guarded_main(argc, argv, [&](funcmesh::mpi::environment& env) {
    const auto world = env.world();
    const int failing = world.size() > 1 ? 1 : 0;
    world.barrier();
    if (world.rank() == failing) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));  // peers are waiting now
      if (terminate_mode)
        std::thread([] { throw std::runtime_error("rank failure test (terminate)"); }).join();
      throw std::runtime_error("rank failure test (guarded_main)");
    }
    world.barrier();  // never completes: the failing rank does not arrive
    std::puts("unreachable: the barrier completed");
    return 0;
  });
}
