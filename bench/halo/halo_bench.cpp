// Halo exchange benchmark: MPI latency and bandwidth against message size
// (point_to_point.cpp), the full halo of a partitioned 1M-cell quad mesh, one message per
// neighbour against one per field (fields_per_round.cpp), overlap of the exchange with a
// neighbour-average update (overlap.cpp: the hidden fraction), strong scaling of that
// update, face loops, and the cost of a distributed assignment with a clean halo against
// the same grid_function assignment (the overhead ratio, last line).
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string_view>
#include <thread>
#include <vector>

#include <funcmesh/app.hpp>
#include <funcmesh/comm/app_run.hpp>
#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/distribute.hpp>
#include <funcmesh/comm/environment.hpp>
#include <funcmesh/comm/face_loops.hpp>
#include <funcmesh/comm/halo_plan.hpp>
#include <funcmesh/comm/halo_progress.hpp>
#include <funcmesh/core/settings.hpp>
#include <funcmesh/framework.hpp>
#include <funcmesh/func/function.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/dual_graph.hpp>

#include "../common/mpi_timing.hpp"
#include "halo_bench.hpp"

namespace fm = funcmesh;

namespace halo_bench {
namespace {

// ---- 2. the full halo of the 1M-cell mesh ----

void full_halo(problem& p, int rank) {
  fm::dist_function<double> b(p.layout, "b"), c(p.layout, "c"), d(p.layout, "d");
  b = 1.0;
  c = 2.0;
  d = 3.0;
  const fm::halo_field one[] = {{&p.u.local_values(), sizeof(double)}};
  const fm::halo_field four[] = {{&p.u.local_values(), sizeof(double)},
                                 {&b.local_values(), sizeof(double)},
                                 {&c.local_values(), sizeof(double)},
                                 {&d.local_values(), sizeof(double)}};
  const fm::index_t halo = p.max_halo();
  const double neighbours = max_over(p.comm(), static_cast<double>(p.plan->neighbour_count()));
  const auto t = interleaved(p.comm(), 15, 20,
                             {[&] { p.plan->exchange(one); }, [&] { p.plan->exchange(four); }});
  if (rank == 0) {
    std::printf("== 2. full halo, box2d_quad(1000, 1000), depth 1, %d ranks\n", p.layout.size());
    std::printf("   largest halo %lld cells, most neighbours %.0f\n", static_cast<long long>(halo),
                neighbours);
    std::printf("   1 double field : %9.2f us\n", t[0] * 1e6);
    std::printf("   4 double fields: %9.2f us (one round)\n\n", t[1] * 1e6);
  }
}

// ---- 4. strong scaling ----

// Seconds per step on a 1-part mesh, on rank 0 alone (the others wait, sleeping).
double one_rank_step(MPI_Comm world, int rank) {
  MPI_Comm self = MPI_COMM_NULL;
  MPI_Comm_split(world, rank == 0 ? 0 : MPI_UNDEFINED, 0, &self);
  double seconds = 0;
  if (rank == 0) {
    problem p(self, 1000);
    p.step();
    seconds = interleaved(self, 9, 10, {[&] { p.step(); }})[0];
    MPI_Comm_free(&self);
  }
  idle_barrier(world);
  return seconds;
}

void strong_scaling(problem& p, int rank, int size, double t1) {
  p.step();
  const double tn = interleaved(p.comm(), 9, 10, {[&] { p.step(); }})[0];
  if (rank == 0) {
    std::printf("== 4. strong scaling, Laplacian step (exchange + update) on 1M cells\n");
    std::printf("   1 rank (rank 0 alone, 1-part mesh): %9.1f us/step\n", t1 * 1e6);
    std::printf("   %d ranks                          : %9.1f us/step\n", size, tn * 1e6);
    std::printf("   parallel efficiency t1 / (np * tnp) = %.3f\n\n", t1 / (size * tn));
  }
}

// ---- 5. face loops: gather (each cell sums its faces) vs scatter (colour groups) ----

// Lambdas, as users write them (api-sketch): a plain function would be called through a
// pointer, face by face.
const auto diffusion =
    fm::_([](double ul, double ur, fm::face_view f) { return (ur - ul) * f.area / f.distance; });
const auto fixed_one =
    fm::_([](double u, fm::face_view f) { return (1.0 - u) * f.area / f.distance; });
const auto insulated = fm::_([](double, fm::face_view) { return 0.0; });

void face_loops(problem& p, int rank) {
  const fm::face_set& faces = p.layout.faces();
  auto gather = [&] {
    fm::gather_faces(p.v, p.u, diffusion, fm::on("left", fixed_one), fm::on("right", fixed_one),
                     fm::on("bottom", insulated), fm::on("top", insulated));
  };
  auto scatter = [&] {
    fm::scatter_faces(p.v, p.u, diffusion, fm::on("left", fixed_one), fm::on("right", fixed_one),
                      fm::on("bottom", insulated), fm::on("top", insulated));
  };
  // The floor: the same sums over the face set's host arrays by a hand-written loop, no
  // framework in between (one thread, fixed order; bitwise the gather form's result).
  const fm::index_t owned = faces.owned_count();
  std::vector<double> hand(static_cast<std::size_t>(owned));
  const std::vector<int> groups{faces.physical_id("left"), faces.physical_id("right")};
  fm::token holder;
  const fm::face_set_view arrays = faces.bind_to(fm::host_space, holder);
  auto by_hand = [&] {
    auto values = p.u.local_values().read();
    for (fm::index_t c = 0; c < owned; ++c) {
      const double mine = values[c];
      double sum = 0;
      for (fm::index_t k = arrays.offsets[c]; k < arrays.offsets[c + 1]; ++k) {
        const fm::index_t other = arrays.other[k];
        const fm::face_view v = arrays.entry(k);
        if (other < 0) {
          const bool fixed = v.physical == groups[0] || v.physical == groups[1];
          sum = sum + (fixed ? fixed_one(mine, v) : insulated(mine, v));
        } else {
          sum = sum + diffusion(mine, values[other], v);
        }
      }
      hand[static_cast<std::size_t>(c)] = sum;
    }
  };
  gather();
  scatter();
  by_hand();
  const auto t = interleaved(p.comm(), 9, 5, {gather, scatter, by_hand});
  if (rank == 0) {
    std::printf("== 5. face loops on 1M cells, %d thread(s) per rank (halo fresh)\n",
                fm::exec::threads_target());
    std::printf("   gather (per cell, fixed global order, reproducible): %9.1f us\n", t[0] * 1e6);
    std::printf("   scatter (per face, face order or coloured blocks)  : %9.1f us\n", t[1] * 1e6);
    std::printf("   hand-written loop over the same arrays (1 thread)  : %9.1f us\n", t[2] * 1e6);
    std::printf("   scatter / gather = %.2f, gather / hand-written = %.2f\n\n", t[1] / t[0],
                t[0] / t[2]);
  }
}

// ---- 6. the cost of being distributed: an assignment with a clean halo ----

struct overhead_ratios {
  double face_sum;
  double axpy;
};

// The same assignments to a dist_function (layout, halo state, the local dirty-bit
// decision) and to a plain grid_function of the same local values, about 10k cells per
// rank, interleaved. u's halo is clean throughout: no exchange, and no message at all.
overhead_ratios distributed_overhead(MPI_Comm world, int rank, int size) {
  const auto side = static_cast<fm::index_t>(std::lround(std::sqrt(10000.0 * size)));
  const fm::distributed_layout layout =
      fm::distribute_generated(world, [side] { return fm::box2d_quad(side, side); });
  const fm::face_set& faces = layout.faces();
  const fm::index_t owned = layout.owned_count(), halo = layout.total_count() - owned;
  fm::dist_function<double> u(layout, "u"), w(layout, "w"), v(layout, "v");
  u = fm::sin(1e-3 * fm::index<fm::cells>());
  w = 0.25;
  u.exchange();
  w.exchange();
  fm::grid_function<double> gu = u.local_values(), gw = w.local_values(), gv(owned, halo, "gv");
  auto dist_face = [&] {
    v = fm::sum_over_faces(faces, diffusion, u, fm::on_other_groups(insulated));
  };
  auto plain_face = [&] {
    gv = fm::sum_over_faces(faces, diffusion, gu, fm::on_other_groups(insulated));
  };
  auto dist_axpy = [&] { v = 0.5 * u + w; };
  auto plain_axpy = [&] { gv = 0.5 * gu + gw; };
  auto same_owned = [&] {
    const auto a = v.local_values().to_vector(), b = gv.to_vector();
    return std::equal(a.begin(), a.begin() + owned, b.begin());
  };
  dist_face();
  plain_face();
  bool same = same_owned();
  dist_axpy();
  plain_axpy();
  same = same && same_owned();
  const auto exchanges = u.exchange_count() + w.exchange_count();
  const auto t = interleaved(world, 21, 200, {dist_face, plain_face, dist_axpy, plain_axpy});
  const bool none = u.exchange_count() + w.exchange_count() == exchanges;
  if (rank == 0) {
    std::printf("== 6. a distributed assignment with a clean halo vs a grid_function's\n");
    std::printf("   box2d_quad(%lld, %lld): about %lld cells per rank, %d thread(s) per rank\n",
                static_cast<long long>(side), static_cast<long long>(side),
                static_cast<long long>(side * side / size), fm::exec::threads_target());
    std::printf("   (medians of 21 rounds of 200 calls; same values, same face set)\n");
    std::printf("   v = sum_over_faces(u): dist_function %8.2f us, grid_function %8.2f us (%.3f)\n",
                t[0] * 1e6, t[1] * 1e6, t[0] / t[1]);
    std::printf("   v = 0.5 * u + w      : dist_function %8.2f us, grid_function %8.2f us (%.3f)\n",
                t[2] * 1e6, t[3] * 1e6, t[2] / t[3]);
    std::printf("   same values: %s; no exchange while timing: %s\n\n", same ? "yes" : "NO",
                none ? "yes" : "NO");
  }
  return {t[0] / t[1], t[2] / t[3]};
}

}  // namespace
}  // namespace halo_bench

using namespace halo_bench;  // the sections, here and in their own files

int main(int argc, char** argv) {
  return fm::app::run(argc, argv, "halo", [&](fm::mpi::environment& env, int rank) {
    overlap_shape shape;
    bool overlap_only = false, fields_only = false;
    fm::index_t side = 0, rows = 0;
    fm::app::program args("halo",
                          "Halo exchange: MPI latency and bandwidth, the full halo of a 1M-cell "
                          "quad mesh, overlap of the exchange with an update (the hidden "
                          "fraction), strong scaling, face loops, and a clean-halo assignment "
                          "against a grid_function's. Run: mpirun -np N bench/halo");
    CLI::Option* side_option =
        args.option("overlap-side", side,
                    "section 3 times the overlap on box2d_quad(S, S) instead of the size whose "
                    "update takes about as long as its exchange (0: that size)")
            ->check(CLI::Range(fm::index_t{2}, fm::index_t{20000}));
    CLI::Option* strip_option =
        args.option("overlap-strip", shape.strip_width,
                    "section 3 searches strips W cells wide whose parts are stacked along their "
                    "length (a halo of W cells on every rank): a halo with wire time to hide, "
                    "e.g. W = 65536 at 1 Gbit/s, 131072 at 10 Gbit/s (docs/distributed.md)")
            ->check(CLI::Range(fm::index_t{2}, fm::index_t{1} << 22));
    args.option("overlap-rows", rows,
                "with --overlap-strip: R rows per part instead of the search's")
        ->check(CLI::Range(fm::index_t{1}, fm::index_t{1} << 20))
        ->needs(strip_option)
        ->excludes(side_option);
    args.flag("overlap-only", overlap_only, "section 3 only (and the overlap line)");
    args.flag("fields-only", fields_only,
              "section 2b only (messages and time per round for 1, 2 and 4 fields), on "
              "box2d_quad(100, 100) and box2d_quad(1000, 1000)");
    if (!args.parse(argc, argv, rank == 0)) return 0;
    shape.forced = rows > 0 ? rows : side;
    const MPI_Comm world = env.world().get();
    int size = 1;
    MPI_Comm_size(world, &size);
    shape.ranks = size;
    // One thread per rank unless asked otherwise: the ranks of a node share its cores.
    if (!fm::settings::get().threads_chosen()) fm::exec::set_threads_target(1);
    if (rank == 0) {
      std::printf(
          "halo benchmark: %d ranks, %d threads per rank; times are medians, each\n"
          "round's time the slowest rank's\n\n",
          size, fm::exec::threads_target());
    }
    if (overlap_only) {
      const double hidden = overlap(world, rank, size, shape);
      if (rank == 0) std::printf("overlap_hidden_fraction %.3f\n", hidden);
      return 0;
    }
    if (fields_only) {
      for (const fm::index_t fields_side : {fm::index_t{100}, fm::index_t{1000}}) {
        problem p(world, fields_side);
        messages_per_round(p, fields_side, rank);
      }
      return 0;
    }
    message_sizes(world, rank, size);
    const double t1 = one_rank_step(world, rank);
    double hidden = 0;
    {
      problem big(world, 1000);
      full_halo(big, rank);
      messages_per_round(big, 1000, rank);
      hidden = overlap(world, rank, size, shape);
      strong_scaling(big, rank, size, t1);
      face_loops(big, rank);
    }
    const overhead_ratios overhead = distributed_overhead(world, rank, size);
    if (rank == 0) {
      std::printf("overlap_hidden_fraction %.3f\n", hidden);
      std::printf("distributed_assign_overhead_axpy %.3f\n", overhead.axpy);
      std::printf("distributed_assign_overhead %.3f\n", overhead.face_sum);
    }
    return 0;
  });
}
