// partitioner: which partitioner a program's set-up uses (--partitioner), and where each
// runs: METIS on rank 0 (today's path for Gmsh files), the others in parallel on slabs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace funcmesh {

enum class partitioner {
  automatic,  // METIS on rank 0 for .msh files; PT-Scotch (else Hilbert) in parallel otherwise
  metis,      // serial METIS on rank 0 (the whole mesh on one rank)
  parmetis,   // ParMETIS in parallel (where it was found at build time)
  ptscotch,   // PT-Scotch in parallel (where it was found at build time)
  hilbert,    // a Hilbert curve cut, either path, no dependency
};

// "auto", "metis", "parmetis", "ptscotch", "hilbert".
std::string_view name_of(partitioner which);
// The partitioner of that name; throws funcmesh::error listing the names otherwise.
partitioner partitioner_named(std::string_view name);
const std::vector<std::string>& partitioner_names();

}  // namespace funcmesh
