// funcmesh::partition in one include: meshes, readers, dual graphs and METIS
// partitioning into per-rank local meshes (no MPI). Filled in by the partitioning issue.
#pragma once

#include <funcmesh/framework.hpp>
#include <funcmesh/partition/metis_error.hpp>
