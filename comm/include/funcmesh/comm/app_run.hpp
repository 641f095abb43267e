// app::run: the frame of an MPI program. Errors every rank saw alike (a bad command line,
// an agreed_error such as a corrupt mesh file or a boundary group the mesh lacks) print
// once, from rank 0, and every rank exits cleanly: 2 for usage errors, 1 for the rest. Anything
// else (an error on some ranks only) ends the job through mpi::guarded_main, naming the rank.
#pragma once

#include <string>

#include <funcmesh/comm/environment.hpp>
#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/core/error.hpp>

namespace funcmesh::app {

namespace detail {
// Prints `what` once (on rank 0 of MPI_COMM_WORLD) as "NAME: what" (not repeating a
// "NAME:" it starts with).
void print_agreed(const std::string& name, const std::string& what, int rank);
}  // namespace detail

// body(env, rank) returns the exit code. MPI is initialized before and finalized after.
template <class Body>
int run(int& argc, char**& argv, const std::string& name, Body&& body) {
  return mpi::guarded_main(argc, argv, [&](mpi::environment& env) {
    int rank = 0;
    MPI_Comm_rank(env.world().get(), &rank);
    try {
      return static_cast<int>(body(env, rank));
    } catch (const usage_error& e) {  // the same arguments on every rank: the same error
      detail::print_agreed(name, e.what(), rank);
      return 2;
    } catch (const agreed_error& e) {  // every rank holds the same error (mpi::agree, or a
                                       // check of what every rank holds alike)
      detail::print_agreed(name, e.what(), rank);
      return 1;
    }
  });
}

}  // namespace funcmesh::app
