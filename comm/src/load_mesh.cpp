// distribute_gmsh and app::load.
#include <funcmesh/comm/load_mesh.hpp>

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/distribute.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/geometry.hpp>
#include <funcmesh/partition/gmsh_reader.hpp>

namespace funcmesh {

distributed_layout distribute_gmsh(MPI_Comm comm, const std::filesystem::path& path,
                                   const partition_options& partitioning,
                                   const halo_options& halo) {
  // Checked where the whole mesh and its file are known: a degenerate or tangled cell is
  // said once, naming the file and the element's tag; inverted cells (a surface meshed
  // clockwise) are turned, since the face set refuses cells of negative volume.
  const auto global = mpi::on_root_agreed(mpi::communicator(comm), [&] {
    mesh m = read_gmsh(path.string());
    normalize_orientation(m);
    return m;
  });
  return distribute(comm, global ? *global : mesh{}, partitioning, halo);
}

namespace app {

distributed_layout load(MPI_Comm comm, const mesh_options& options,
                        const partition_options& partitioning, const halo_options& halo) {
  if (!options.file.empty()) return distribute_gmsh(comm, options.file, partitioning, halo);
  options.check();  // the same options on every rank: the same error, before any message
  const mesh_options chosen = options;
  return distribute_generated(
      comm,
      [chosen] {
        box_options box;
        box.perturbation = chosen.perturbation;
        const index_t n = chosen.n;
        if (chosen.builtin == "box2d-quad") return box2d_quad(n, n, box);
        if (chosen.builtin == "box2d-tri") return box2d_tri(n, n, box);
        if (chosen.builtin == "box3d-hex") return box3d_hex(n, n, n, box);
        return box3d_tet(n, n, n, box);
      },
      partitioning, halo);
}

}  // namespace app
}  // namespace funcmesh
