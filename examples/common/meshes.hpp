// The mesh options the example programs share: a Gmsh file (--mesh, read on rank 0 and
// distributed) or a built-in box (--builtin NAME --n N: N cells per direction, generated
// by every rank, which keeps its part).
#pragma once

#include <string>

#include <mpi.h>

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/distribute.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/gmsh_reader.hpp>

#include "arguments.hpp"

namespace example {

struct mesh_choice {
  std::string file;
  std::string builtin = "box2d-quad";
  funcmesh::index_t n = 64;
  double perturbation = 0;

  void add_to(arguments& args) {
    args.option("mesh", file, "a Gmsh .msh file (instead of a built-in mesh)");
    args.option("builtin", builtin, "built-in mesh: box2d-quad, box2d-tri, box3d-hex, box3d-tet");
    args.option("n", n, "built-in mesh: cells per direction on the unit square or cube");
    args.option("perturbation", perturbation, "built-in mesh: move interior nodes (0..0.2)");
  }
  std::string describe() const {
    return file.empty() ? builtin + " " + std::to_string(n) + "^d" : file;
  }
  // Throws usage_error for options no built-in mesh accepts.
  void check() const {
    if (builtin != "box2d-quad" && builtin != "box2d-tri" && builtin != "box3d-hex" &&
        builtin != "box3d-tet") {
      throw usage_error("--builtin '" + builtin +
                        "' is not box2d-quad, box2d-tri, box3d-hex or box3d-tet");
    }
    if (n < 1) throw usage_error("--n must be at least 1, got " + std::to_string(n));
    if (!(perturbation >= 0 && perturbation <= 0.2)) {
      throw usage_error("--perturbation must be in [0, 0.2]");
    }
  }
  funcmesh::mesh generate() const {
    namespace fm = funcmesh;
    check();
    fm::box_options options;
    options.perturbation = perturbation;
    if (builtin == "box2d-quad") return fm::box2d_quad(n, n, options);
    if (builtin == "box2d-tri") return fm::box2d_tri(n, n, options);
    if (builtin == "box3d-hex") return fm::box3d_hex(n, n, n, options);
    return fm::box3d_tet(n, n, n, options);
  }
  // Collective: every rank ends with its part's layout. A bad file fails every rank alike.
  funcmesh::distributed_layout load(MPI_Comm comm) const {
    namespace fm = funcmesh;
    if (!file.empty()) {
      const auto global =
          fm::mpi::on_root_agreed(fm::mpi::communicator(comm), [&] { return fm::read_gmsh(file); });
      return fm::distribute(comm, global ? *global : fm::mesh{});
    }
    check();  // bad options are usage errors on every rank alike, before any message
    const mesh_choice copy = *this;
    return fm::distribute_generated(comm, [copy] { return copy.generate(); });
  }
};

}  // namespace example
