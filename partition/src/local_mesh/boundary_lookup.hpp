// Private to local_mesh.cpp: which cells each boundary element of a mesh is a face of, so
// a local mesh can take the boundary elements of its cells without searching faces again.
#pragma once

#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/partition/mesh.hpp>

namespace funcmesh::local_mesh_detail {

// Cell c's boundary elements: elements[offsets[c], offsets[c + 1]), ascending. An element
// on an internal surface lists under both its cells; one on no cell face under none.
struct boundary_lookup {
  std::vector<index_t> offsets;
  std::vector<index_t> elements;
};

// Expects node indices already checked to be in range.
boundary_lookup attach_boundary(const mesh& m);

}  // namespace funcmesh::local_mesh_detail
