// local_cell_lookup: a local mesh's global -> local cell index, built on demand. A local
// mesh stores none (its solvers never ask, and it would hold 8 bytes a cell for the run).
#pragma once

#include <utility>
#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/partition/local_mesh.hpp>

namespace funcmesh {

class local_cell_lookup {
 public:
  // O(n log n) once; each lookup is a binary search. Keeps no reference to `m`.
  explicit local_cell_lookup(const local_mesh& m);
  // The local index of global cell `global`, or -1 when it is not in the local mesh.
  index_t operator()(index_t global) const;

 private:
  std::vector<std::pair<index_t, index_t>> by_global_;  // (global, local), by global
};

}  // namespace funcmesh
