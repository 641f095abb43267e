// partition_parmetis where ParMETIS was not found at build time (Debian has no ParMETIS;
// Spack's funcmesh+parmetis has): every rank throws the same error, saying what to do.
#include <vector>

#include <funcmesh/comm/collective_error.hpp>
#include <funcmesh/comm/distributed_graph.hpp>
#include <funcmesh/core/error.hpp>

namespace funcmesh {

bool have_parmetis() { return false; }

std::vector<int> partition_parmetis(MPI_Comm, const distributed_graph&, int,
                                    const partition_options&) {
  // Every rank runs the same build, so every rank throws this without talking: as agree()
  // would when all ranks fail, it names rank 0.
  throw mpi::collective_error(
      0,
      "funcmesh::partition_parmetis: funcmesh was built without ParMETIS: install it (spack's "
      "funcmesh+parmetis), or use partition_ptscotch or --partitioner hilbert");
}

}  // namespace funcmesh
