#include "scaling_steps.hpp"

#include <cstdint>
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
    // Rounds, messages and halo bytes: counted from the code (count_traffic); these are
    // what it sent when measured last (one round a stage, q alone: 32 bytes a halo cell),
    // used only where nothing can be counted (one rank). The rms (one global sum) every
    // 100 iterations, as examples/euler prints it.
    // Memory per stage: the adt pass reads q (32) and the face entries, writes adt (8); the
    // flux-and-update pass reads the stage's q and adt (40), the old q (32), writes q (32),
    // and the face entries again. A quad's 4 entries take 4 (offset) + 4 x (4 neighbour + 4
    // face + 8 area + 16 normal) bytes a pass: 2 x (40 + 104 + 2 x 132) = 816 bytes a cell.
    // adt is computed on the halo cells too (with_halo()): 2 x (32 + 8 + 132) = 344 bytes a
    // halo cell.
    return {.family = "airfoil",
            .step = "Airfoil iteration (2 stages, gather form)",
            .dimension = 2,
            .kind = {.name = "airfoil", .rounds = 2, .halo_bytes_per_cell = 32, .reductions = 0.01},
            .bytes_per_cell = 816,
            .halo_bytes_per_cell = 344};
  }
  if (family == "tetbox") {
    // One round of u (8 bytes a halo cell), no reduction. Memory: u (8) read, the new u (8)
    // written, 4 face entries of 4 + 4 + 8 (area) + 8 (distance), an offset: 116 bytes.
    return {.family = "tetbox",
            .step = "explicit diffusion step (one face sum)",
            .dimension = 3,
            .kind = {.name = "tetbox", .rounds = 1, .halo_bytes_per_cell = 8, .reductions = 0},
            .bytes_per_cell = 116};
  }
  throw fm::error("bench/scaling: unknown mesh family '" + family + "' (airfoil or tetbox)");
}

fm::mesh family_mesh(const scheme& s, index_t cells) {
  return fm::builtin_mesh(s.family == "airfoil" ? "airfoil" : "box3d-tet", cells);
}

namespace {

// Calls use(step) with the scheme's step on `layout`, its fields alive meanwhile.
template <class Use>
void with_step(const scheme& s, const fm::distributed_layout& layout, const Use& use) {
  if (s.family == "airfoil") {
    airfoil::solver solver(layout, airfoil::face_form::gather);
    use([&] { solver.iterate(false); });
    return;
  }
  fm::dist_function<double> u(layout, "u"), v(layout, "v");
  u = fm::sin(1e-3 * fm::index<fm::cells>());
  const fm::face_set& faces = layout.faces();
  use([&] {
    v = u + 0.01 * fm::sum_over_faces(faces, diffusion, u, fm::on_other_groups(insulated));
    swap(u, v);
  });
}

}  // namespace

double seconds_per_step(const scheme& s, const fm::distributed_layout& layout, int rounds,
                        int batch) {
  double seconds = 0;
  with_step(s, layout,
            [&](const auto& step) { seconds = median_batch(layout.comm(), rounds, batch, step); });
  return seconds;
}

traffic count_traffic(const scheme& s, const fm::distributed_layout& layout, int steps) {
  const fm::halo_plan& plan = layout.exchange_plan();
  traffic t;
  with_step(s, layout, [&](const auto& step) {
    step();  // the first step's rounds may differ (fields set up dirty)
    const std::uint64_t rounds = plan.exchange_count(), messages = plan.messages_sent(),
                        bytes = plan.bytes_sent();
    for (int k = 0; k < steps; ++k) step();
    // Summed over the ranks: rounds, messages and bytes sent, neighbours, cells sent a round.
    double sent_cells = 0;
    for (const auto& n : layout.mesh().neighbours) sent_cells += static_cast<double>(n.send.size());
    const double local[5] = {static_cast<double>(plan.exchange_count() - rounds),
                             static_cast<double>(plan.messages_sent() - messages),
                             static_cast<double>(plan.bytes_sent() - bytes),
                             static_cast<double>(plan.neighbour_count()), sent_cells};
    double totals[5] = {};
    MPI_Allreduce(local, totals, 5, MPI_DOUBLE, MPI_SUM, layout.comm());
    t.rounds = totals[0] / (steps * static_cast<double>(layout.size()));
    t.messages_per_round =
        totals[3] > 0 && totals[0] > 0 ? totals[1] / totals[0] * layout.size() / totals[3] : 0;
    t.bytes_per_cell =
        totals[4] > 0 && t.rounds > 0 ? totals[2] / (totals[4] * t.rounds * steps) : 0;
    t.counted = totals[3] > 0;
  });
  return t;
}

}  // namespace scaling
