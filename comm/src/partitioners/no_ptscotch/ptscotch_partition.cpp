// partition_ptscotch where PT-Scotch was not found at build time (or was turned off with
// -DFUNCMESH_ENABLE_PTSCOTCH=OFF): every rank throws the same error, saying what to do.
#include <vector>

#include <funcmesh/comm/collective_error.hpp>
#include <funcmesh/comm/distributed_graph.hpp>
#include <funcmesh/core/error.hpp>

namespace funcmesh {

bool have_ptscotch() { return false; }

std::vector<int> partition_ptscotch(MPI_Comm, const distributed_graph&, int,
                                    const partition_options&) {
  // Every rank runs the same build, so every rank throws this without talking: as agree()
  // would when all ranks fail, it names rank 0.
  throw mpi::collective_error(
      0,
      "funcmesh::partition_ptscotch: funcmesh was built without PT-Scotch: install "
      "libptscotch-dev (Debian) or spack's scotch+mpi, or use --partitioner hilbert");
}

}  // namespace funcmesh
