// distribute_gmsh and app::load: which set-up path a program's mesh options choose.
#include <funcmesh/comm/load_mesh.hpp>

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/distribute.hpp>
#include <funcmesh/comm/distribute_slab.hpp>
#include <funcmesh/comm/mesh_file.hpp>
#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/comm/partitioner.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/geometry.hpp>
#include <funcmesh/partition/gmsh_reader.hpp>

namespace funcmesh {

namespace {

mesh read_oriented(const std::filesystem::path& path) {
  mesh m = read_gmsh(path.string());
  normalize_orientation(m);
  return m;
}

box_options box_of(const app::mesh_options& options) {
  box_options box;
  box.perturbation = options.perturbation;
  return box;
}

mesh whole_box(const app::mesh_options& options) {
  const index_t n = options.n;
  const box_options box = box_of(options);
  if (options.builtin == "box2d-quad") return box2d_quad(n, n, box);
  if (options.builtin == "box2d-tri") return box2d_tri(n, n, box);
  if (options.builtin == "box3d-hex") return box3d_hex(n, n, n, box);
  return box3d_tet(n, n, n, box);
}

// --save-mesh: rank 0 reads or generates the whole mesh once more and writes it.
void save_mesh(MPI_Comm comm, const app::mesh_options& options, bool mesh_file) {
  const mpi::communicator world(comm);
  std::string failure;
  if (mesh_file) {
    failure = "--save-mesh: " + options.file + " is already a funcmesh mesh file";
  }
  mpi::agree(world, failure);
  mpi::on_root_agreed(world, [&] {
    write_mesh_file(options.save_mesh,
                    options.file.empty() ? whole_box(options) : read_oriented(options.file));
  });
}

}  // namespace

distributed_layout distribute_gmsh(MPI_Comm comm, const std::filesystem::path& path,
                                   const partition_options& partitioning,
                                   const halo_options& halo) {
  // Checked where the whole mesh and its file are known: a degenerate or tangled cell is
  // said once, naming the file and the element's tag; inverted cells (a surface meshed
  // clockwise) are turned, since the face set refuses cells of negative volume.
  const auto global =
      mpi::on_root_agreed(mpi::communicator(comm), [&] { return read_oriented(path); });
  return distribute(comm, global ? *global : mesh{}, partitioning, halo);
}

namespace app {

distributed_layout load_file(MPI_Comm comm, const std::string& file,
                             const std::string& partitioner_name,
                             const partition_options& partitioning, const halo_options& halo) {
  const partitioner which = partitioner_named(partitioner_name);
  if (is_mesh_file(file)) {
    if (which == partitioner::metis) {
      throw usage_error(
          "--partitioner metis partitions a .msh file read on rank 0; for the .h5 "
          "mesh " +
          file + " choose auto, ptscotch, parmetis or hilbert");
    }
    return distribute_slab(comm, read_mesh_file(comm, file), which, partitioning, halo);
  }
  if (which == partitioner::ptscotch || which == partitioner::parmetis) {
    throw usage_error("--partitioner " + partitioner_name + " partitions in parallel, from a " +
                      "funcmesh .h5 mesh: convert " + file +
                      " with funcmesh-partition --convert, or choose auto, metis or hilbert");
  }
  partition_options serial = partitioning;
  if (which == partitioner::hilbert) serial.method = partition_method::hilbert;
  return distribute_gmsh(comm, file, serial, halo);
}

distributed_layout load(MPI_Comm comm, const mesh_options& options,
                        const partition_options& partitioning, const halo_options& halo) {
  options.check();  // the same options on every rank: the same error, before any message
  if (!options.save_mesh.empty()) {
    save_mesh(comm, options, !options.file.empty() && is_mesh_file(options.file));
  }
  if (!options.file.empty()) {
    return load_file(comm, options.file, options.partitioner, partitioning, halo);
  }
  const partitioner which = partitioner_named(options.partitioner);
  if (which == partitioner::metis) {
    const mesh_options chosen = options;
    return distribute_generated(
        comm, [chosen] { return whole_box(chosen); }, partitioning, halo);
  }
  int ranks = 1, rank = 0;
  check_mpi(MPI_Comm_size(comm, &ranks), "MPI_Comm_size", comm);
  check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank", comm);
  return distribute_slab(comm, box_slab(options.builtin, options.n, box_of(options), ranks, rank),
                         which, partitioning, halo);
}

}  // namespace app
}  // namespace funcmesh
