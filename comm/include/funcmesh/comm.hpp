// funcmesh::comm in one include: MPI environment, distributed meshes and grid functions,
// halo exchange and global reductions. Filled in by the comm issue.
#pragma once

#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/partition.hpp>
