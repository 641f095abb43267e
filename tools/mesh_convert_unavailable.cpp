// --convert in a build without MPI (so without funcmesh::comm and its mesh file writer).
#include "mesh_convert.hpp"

#include <funcmesh/core/error.hpp>

namespace funcmesh::tools {

void convert_mesh(const std::filesystem::path&, const std::filesystem::path& out) {
  throw error("funcmesh was built without HDF5: funcmesh-partition --convert: cannot write " +
              out.string() +
              " (this build has no MPI, so no funcmesh::comm); rebuild with "
              "FUNCMESH_ENABLE_MPI=ON and FUNCMESH_ENABLE_HDF5=ON");
}

}  // namespace funcmesh::tools
