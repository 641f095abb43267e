// The frame of an example MPI program: errors that every rank sees alike (bad options, an
// agreed collective error such as a bad mesh file) print once, from rank 0, and every rank
// exits 1 (2 for usage errors) cleanly; anything else aborts the job (mpi::guarded_main).
#pragma once

#include <cstdio>
#include <string>
#include <utility>

#include <mpi.h>

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/environment.hpp>

#include "arguments.hpp"

namespace example {

// body(env, rank) returns the exit code.
template <class Body>
int mpi_program(int& argc, char**& argv, const char* name, Body&& body) {
  return funcmesh::mpi::guarded_main(argc, argv, [&](funcmesh::mpi::environment& env) {
    int rank = 0;
    MPI_Comm_rank(env.world().get(), &rank);
    try {
      return body(env, rank);
    } catch (const usage_error& e) {  // the same arguments on every rank: the same error
      const std::string text = e.what();
      const std::string prefix = std::string(name) + ":";
      if (rank == 0) {
        std::fprintf(stderr, "%s%s\n", text.starts_with(prefix) ? "" : (prefix + " ").c_str(),
                     text.c_str());
      }
      return 2;
    } catch (const funcmesh::mpi::collective_error& e) {
      if (rank == 0) std::fprintf(stderr, "%s: %s\n", name, e.what());
      return 1;
    }
  });
}

}  // namespace example
