#include "scaling_steps.hpp"

#include <utility>

#include <funcmesh/comm.hpp>
#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>

#include "../../examples/euler/airfoil_solver.hpp"
#include "../common/mpi_timing.hpp"

namespace scaling {

namespace fm = funcmesh;

namespace {

// The heat example's face term: (u_other - u) area / distance; the box's walls insulated.
const auto diffusion =
    fm::_([](double ul, double ur, fm::face_view f) { return (ur - ul) * f.area / f.distance; });
const auto insulated = fm::_([](double, fm::face_view) { return 0.0; });

double median_batch(MPI_Comm comm, int rounds, int batch, const std::function<void()>& step) {
  step();
  return bench::interleaved(comm, rounds, batch, {step})[0];
}

}  // namespace

scheme scheme_named(const std::string& family) {
  if (family == "airfoil") {
    // Two stages; each reads q and adt at neighbours (4 + 1 doubles: one round of 40 bytes a
    // halo cell); the rms (one global sum) every 100 iterations, as examples/euler prints it.
    // Memory per stage: the adt pass reads q (32) and the face entries, writes adt (8); the
    // flux-and-update pass reads the stage's q and adt (40), the old q (32), writes q (32),
    // and the face entries again. A quad's 4 entries take 4 (offset) + 4 x (4 neighbour + 4
    // face + 8 area + 16 normal) bytes a pass: 2 x (40 + 104 + 2 x 132) = 816 bytes a cell.
    return {"airfoil",
            "Airfoil iteration (2 stages, gather form)",
            2,
            {.name = "airfoil", .rounds = 2, .halo_bytes_per_cell = 40, .reductions = 0.01},
            816};
  }
  if (family == "tetbox") {
    // One round of u (8 bytes a halo cell), no reduction. Memory: u (8) read, the new u (8)
    // written, 4 face entries of 4 + 4 + 8 (area) + 8 (distance), an offset: 116 bytes.
    return {"tetbox",
            "explicit diffusion step (one face sum)",
            3,
            {.name = "tetbox", .rounds = 1, .halo_bytes_per_cell = 8, .reductions = 0},
            116};
  }
  throw fm::error("bench/scaling: unknown mesh family '" + family + "' (airfoil or tetbox)");
}

fm::mesh family_mesh(const scheme& s, index_t cells) {
  return fm::builtin_mesh(s.family == "airfoil" ? "airfoil" : "box3d-tet", cells);
}

double seconds_per_step(const scheme& s, const fm::distributed_layout& layout, int rounds,
                        int batch) {
  const MPI_Comm comm = layout.comm();
  if (s.family == "airfoil") {
    airfoil::solver solver(layout, airfoil::face_form::gather);
    return median_batch(comm, rounds, batch, [&] { solver.iterate(false); });
  }
  fm::dist_function<double> u(layout, "u"), v(layout, "v");
  u = fm::sin(1e-3 * fm::index<fm::cells>());
  const fm::face_set& faces = layout.faces();
  return median_batch(comm, rounds, batch, [&] {
    v = u + 0.01 * fm::sum_over_faces(faces, diffusion, u, fm::on_other_groups(insulated));
    swap(u, v);
  });
}

}  // namespace scaling
