// Halo exchange benchmark: MPI latency and bandwidth against message size, the full halo
// of a partitioned 1M-cell quad mesh, overlap of the exchange with a neighbour-average
// update (the hidden fraction), strong scaling of that update, face loops, and the cost of
// a distributed assignment with a clean halo against the same grid_function assignment
// (the overhead ratio, last line).
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

namespace fm = funcmesh;

namespace {

constexpr int max_neighbours = 4;  // quads have four faces
using neighbour_list = fm::vec<fm::index_t, max_neighbours>;

// u_new[i] = mean of u over i's face neighbours (the Laplacian smoothing step).
const auto average = fm::_([](fm::proxy<const double> u, neighbour_list n) {
  double sum = 0.0;
  int count = 0;
  for (int k = 0; k < max_neighbours; ++k) {
    if (n[k] >= 0) {
      sum += u[n[k]];
      ++count;
    }
  }
  return count > 0 ? sum / count : 0.0;
});

using bench::idle_barrier;
using bench::interleaved;
using bench::max_over;
using bench::median;
using bench::now;

// ---- 1. latency and bandwidth against message size (ranks 0 and 1) ----

void message_sizes(MPI_Comm world, int rank, int size) {
  if (rank == 0) std::printf("== 1. point-to-point, ranks 0 <-> 1 (medians of 11 rounds)\n");
  if (size < 2) {
    if (rank == 0) std::printf("   needs 2 ranks: skipped\n\n");
    return;
  }
  std::vector<std::size_t> bytes;
  for (std::size_t b = 8; b <= (std::size_t{16} << 20); b *= 4) bytes.push_back(b);
  bytes.push_back(std::size_t{16} << 20);  // 8 * 4^k stops at 8 MB
  const std::size_t largest = bytes.back();
  std::vector<char> out(largest, 1), in(largest, 0);
  const int rounds = 11;
  std::vector<std::vector<double>> pingpong(bytes.size()), exchange(bytes.size());
  if (rank < 2) {
    MPI_Comm pair = MPI_COMM_NULL;
    MPI_Comm_split(world, 0, rank, &pair);
    const int peer = 1 - rank;
    for (int r = 0; r < rounds; ++r) {
      for (std::size_t k = 0; k < bytes.size(); ++k) {
        const int n = static_cast<int>(bytes[k]);
        const int iterations =
            static_cast<int>(std::clamp<std::size_t>((std::size_t{4} << 20) / bytes[k], 4, 200));
        // Ping-pong: one-way time is half the round trip.
        MPI_Barrier(pair);
        double start = now();
        for (int i = 0; i < iterations; ++i) {
          if (rank == 0) {
            MPI_Send(out.data(), n, MPI_CHAR, peer, 1, pair);
            MPI_Recv(in.data(), n, MPI_CHAR, peer, 1, pair, MPI_STATUS_IGNORE);
          } else {
            MPI_Recv(in.data(), n, MPI_CHAR, peer, 1, pair, MPI_STATUS_IGNORE);
            MPI_Send(out.data(), n, MPI_CHAR, peer, 1, pair);
          }
        }
        pingpong[k].push_back((now() - start) / (2.0 * iterations));
        // The halo pattern: both ranks send and receive at once, persistent requests.
        MPI_Request requests[2];
        MPI_Recv_init(in.data(), n, MPI_CHAR, peer, 2, pair, &requests[0]);
        MPI_Send_init(out.data(), n, MPI_CHAR, peer, 2, pair, &requests[1]);
        MPI_Barrier(pair);
        start = now();
        for (int i = 0; i < iterations; ++i) {
          MPI_Startall(2, requests);
          MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
        }
        exchange[k].push_back(max_over(pair, (now() - start) / iterations));
        MPI_Request_free(&requests[0]);
        MPI_Request_free(&requests[1]);
      }
    }
    MPI_Comm_free(&pair);
  } else {
    MPI_Comm unused = MPI_COMM_NULL;
    MPI_Comm_split(world, MPI_UNDEFINED, rank, &unused);
  }
  if (rank == 0) {
    std::printf("   %10s | %12s %8s | %14s %8s\n", "bytes", "pingpong us", "GB/s", "exchange us",
                "GB/s");
    for (std::size_t k = 0; k < bytes.size(); ++k) {
      const double p = median(pingpong[k]), e = median(exchange[k]);
      const double b = static_cast<double>(bytes[k]);
      std::printf("   %10zu | %12.2f %8.3f | %14.2f %8.3f\n", bytes[k], p * 1e6, b / p * 1e-9,
                  e * 1e6, b / e * 1e-9);
    }
    std::printf(
        "   (pingpong: one way = round trip / 2; exchange: both ranks send and receive\n"
        "    at once with persistent requests, GB/s per direction)\n\n");
  }
  idle_barrier(world);
}

// ---- the update on a local mesh ----

struct problem {
  fm::distributed_layout layout;
  fm::halo_plan* plan;
  fm::dist_function<double> u, v;
  fm::grid_function<neighbour_list> nbr;

  problem(MPI_Comm comm, fm::index_t side)
      : problem(comm, [side] { return fm::box2d_quad(side, side); }, {}) {}
  problem(MPI_Comm comm, const std::function<fm::mesh()>& generate,
          const fm::partition_options& partitioning)
      : layout(fm::distribute_generated(comm, generate, partitioning)),
        plan(&layout.exchange_plan()),
        u(layout, "u"),
        v(layout, "v"),
        nbr(layout.owned_count(), layout.total_count() - layout.owned_count(), "neighbours") {
    const fm::local_mesh& m = layout.mesh();
    const fm::graph g = fm::dual_graph(m.cells);
    {
      auto w = nbr.write();
      for (fm::index_t c = 0; c < m.owned_count; ++c) {
        const auto list = g.neighbours(c);
        for (int k = 0; k < max_neighbours; ++k) {
          w[c][k] = k < static_cast<int>(list.size()) ? list[static_cast<std::size_t>(k)] : -1;
        }
      }
    }
    auto w = u.write();
    for (fm::index_t c = 0; c < m.owned_count; ++c) {
      w[c] = std::sin(1e-3 * static_cast<double>(m.global_cell[static_cast<std::size_t>(c)]));
    }
  }
  MPI_Comm comm() const { return layout.comm(); }
  fm::index_t max_halo() const {
    return static_cast<fm::index_t>(
        max_over(comm(), static_cast<double>(layout.mesh().halo_count())));
  }
  fm::index_t max_owned() const {
    return static_cast<fm::index_t>(max_over(comm(), static_cast<double>(layout.owned_count())));
  }
  void update() { v = average / fm::pure(fm::pr(u)) * nbr; }
  void step() {
    update();
    swap(u, v);  // the new u is written, so the next step exchanges its halo
  }
};

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

// ---- 2b. one message per neighbour per round, against one per field ----

// Rounds of 1, 2 and 4 double fields, each field set with its messages aggregated (one per
// neighbour, as halo_plan sends them) and with one message per field and neighbour (the
// behaviour before, through the testing switch), interleaved in one process.
void messages_per_round(problem& p, fm::index_t side, int rank) {
  fm::dist_function<double> b(p.layout, "b"), c(p.layout, "c"), d(p.layout, "d");
  b = 1.0;
  c = 2.0;
  d = 3.0;
  const fm::halo_field all[] = {{&p.u.local_values(), sizeof(double)},
                                {&b.local_values(), sizeof(double)},
                                {&c.local_values(), sizeof(double)},
                                {&d.local_values(), sizeof(double)}};
  const fm::index_t halo = p.max_halo();
  if (rank == 0) {
    std::printf("== 2b. messages per round and time per round for 1, 2 and 4 fields\n");
    std::printf(
        "   box2d_quad(%lld, %lld), %d ranks, largest halo %lld cells; medians of 21\n"
        "   interleaved rounds of 50 exchanges; messages summed over the ranks\n",
        static_cast<long long>(side), static_cast<long long>(side), p.layout.size(),
        static_cast<long long>(halo));
  }
  for (const std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{4}}) {
    const std::span<const fm::halo_field> fields(all, n);
    auto aggregated = [&] { p.plan->exchange(fields); };
    auto per_field = [&] {
      fm::detail::set_halo_messages_per_field_for_testing(true);
      p.plan->exchange(fields);
      fm::detail::set_halo_messages_per_field_for_testing(false);
    };
    // One round of each first: the messages it sends, and every request built.
    auto sent_by = [&](const std::function<void()>& round) {
      const std::uint64_t before = p.plan->messages_sent();
      round();
      const double mine = static_cast<double>(p.plan->messages_sent() - before);
      double all_ranks = 0;
      MPI_Allreduce(&mine, &all_ranks, 1, MPI_DOUBLE, MPI_SUM, p.comm());
      return all_ranks;
    };
    const double aggregated_messages = sent_by(aggregated);
    const double per_field_messages = sent_by(per_field);
    const auto t = interleaved(p.comm(), 21, 50, {aggregated, per_field});
    if (rank == 0) {
      std::printf(
          "   halo_fields=%zu messages_per_round=%.0f per_field_messages=%.0f aggregated_us=%.2f "
          "per_field_us=%.2f ratio=%.3f\n",
          n, aggregated_messages, per_field_messages, t[0] * 1e6, t[1] * 1e6, t[0] / t[1]);
    }
  }
  if (rank == 0) {
    std::printf(
        "   (ratio = aggregated / per field: below 1, one message per neighbour is faster)\n\n");
  }
}

// ---- 3. overlap ----

struct overlap_times {
  double ex, up, both, both_other;
};

// The chunk setting section 3 compares with the one in force: one loop against 8 chunks.
int other_chunk_setting() { return fm::halo_progress_chunks() > 1 ? 1 : 8; }

// t_ex: the exchange alone; t_up: the update with a fresh halo (no exchange); t_both: the
// update with a stale halo (begin, interior, end, boundary), the interior in the chunks
// of the setting in force and of other_chunk_setting(). Interleaved batches of 50.
overlap_times time_overlap(problem& p, int rounds) {
  const int chunks = fm::halo_progress_chunks();
  auto exchange = [&] {
    p.u.mark_halo_stale();
    p.u.exchange();
  };
  auto update = [&] { p.update(); };
  auto both = [&] {
    p.u.mark_halo_stale();
    p.update();
  };
  const int other = other_chunk_setting();
  auto both_other = [&] {
    fm::set_halo_progress_chunks(other);
    both();
    fm::set_halo_progress_chunks(chunks);
  };
  const auto t = interleaved(p.comm(), rounds, 50, {exchange, update, both, both_other});
  return {t[0], t[1], t[2], t[3]};
}

// The meshes section 3 searches: squares box2d_quad(side, side) partitioned by METIS, or
// strips of `strip_width` columns whose parts are stacked along their length (geometric
// bisection of a strip 1000 times taller than wide), so that a halo of strip_width cells
// meets an interior of strip_width x rows: a round that carries real bytes at the size
// where it takes as long as the update (a square's balanced halo is a few hundred bytes,
// all latency).
struct overlap_shape {
  fm::index_t strip_width = 0;  // 0: squares
  fm::index_t forced = 0;       // > 0: this side (rows per part) instead of the search's
  int ranks = 1;

  std::vector<fm::index_t> sizes() const {
    if (strip_width == 0) return {16, 32, 64, 128, 256, 512};
    std::vector<fm::index_t> rows;
    // At most 4M owned cells a rank.
    for (fm::index_t r = 1; r <= 1024 && r * strip_width <= (fm::index_t{4} << 20); r *= 2) {
      rows.push_back(r);
    }
    return rows;
  }
  const char* size_name() const { return strip_width == 0 ? "side" : "rows"; }
  std::unique_ptr<problem> make(MPI_Comm comm, fm::index_t size) const {
    if (strip_width == 0) return std::make_unique<problem>(comm, size);
    const fm::index_t width = strip_width, height = size * ranks;
    fm::partition_options along;
    along.method = fm::partition_method::geometric;
    return std::make_unique<problem>(
        comm,
        [width, height] {
          return fm::box2d_quad(width, height, {.lengths = {1, 1000, 1}});
        },
        along);
  }
};

double overlap(MPI_Comm world, int rank, int size, const overlap_shape& shape) {
  if (rank == 0) {
    std::printf("== 3. overlap: u_new = mean of face neighbours through a proxy\n");
    if (shape.strip_width > 0) {
      std::printf("   strips box2d_quad(%lld, rows x ranks), parts stacked along their length\n",
                  static_cast<long long>(shape.strip_width));
    }
    std::printf("   search for t_up/t_ex within 2x (medians of 5 rounds):\n");
    std::printf("   %6s %10s %8s | %10s %10s %7s\n", shape.size_name(), "owned", "halo", "t_ex us",
                "t_up us", "up/ex");
  }
  fm::index_t best_side = 0;
  double best_distance = std::numeric_limits<double>::infinity();
  for (fm::index_t side : shape.sizes()) {
    const auto p = shape.make(world, side);
    const overlap_times t = time_overlap(*p, 5);
    const fm::index_t owned = p->max_owned(), halo = p->max_halo();
    const double distance = std::abs(std::log(t.up / t.ex));
    if (distance < best_distance) {
      best_distance = distance;
      best_side = side;
    }
    if (rank == 0) {
      std::printf("   %6lld %10lld %8lld | %10.2f %10.2f %7.2f\n", static_cast<long long>(side),
                  static_cast<long long>(owned), static_cast<long long>(halo), t.ex * 1e6,
                  t.up * 1e6, t.up / t.ex);
    }
    if (t.up > 4 * t.ex) break;  // larger ones only drift further from the balance
  }
  if (shape.forced > 0) best_side = shape.forced;
  const auto chosen = shape.make(world, best_side);
  problem& p = *chosen;
  const fm::index_t chosen_halo = p.max_halo();  // collective: every rank
  // Where an exchange's time goes: begin (pack, start) and end (wait, unpack).
  const fm::halo_field one[] = {{&p.u.local_values(), sizeof(double)}};
  std::vector<double> begins, ends;
  for (int r = 0; r < 21; ++r) {
    double b = 0, e = 0;
    MPI_Barrier(world);
    for (int k = 0; k < 50; ++k) {
      const double t0 = now();
      p.plan->begin(one);
      const double t1 = now();
      p.plan->end();
      b += t1 - t0;
      e += now() - t1;
    }
    begins.push_back(max_over(world, b / 50));
    ends.push_back(max_over(world, e / 50));
  }
  const auto exchanges = p.u.exchange_count();
  const overlap_times t = time_overlap(p, 21);
  const auto expected = exchanges + 21u * 50u * 3u;  // the exchange and the stale updates
  const bool counted = p.u.exchange_count() == expected;
  const double hidden = (t.ex + t.up - t.both) / std::min(t.ex, t.up);
  const double hidden_other = (t.ex + t.up - t.both_other) / std::min(t.ex, t.up);
  // The chunks each setting cuts this interior into.
  const fm::index_t interior = p.layout.interior_count();
  const int chunks = fm::halo_progress_chunks();
  const fm::index_t cut = fm::detail::progress_chunk_count(interior);
  fm::set_halo_progress_chunks(other_chunk_setting());
  const fm::index_t other_cut = fm::detail::progress_chunk_count(interior);
  fm::set_halo_progress_chunks(chunks);
  if (rank == 0) {
    std::printf("   %s %s %lld, halo %lld cells (medians of 21 rounds of 50 calls):\n",
                shape.forced > 0 ? "given" : "chosen", shape.size_name(),
                static_cast<long long>(best_side), static_cast<long long>(chosen_halo));
    std::printf("   t_ex %.2f us, t_up %.2f us, t_both %.2f us (up/ex %.2f%s)\n", t.ex * 1e6,
                t.up * 1e6, t.both * 1e6, t.up / t.ex,
                std::abs(std::log(t.up / t.ex)) <= std::log(2.0) ? "" : ", NOT within 2x");
    std::printf(
        "   interior in %lld chunk(s) (FUNCMESH_HALO_PROGRESS_CHUNKS %d), MPI_Testall between:"
        " t_both %.2f us, hidden %.3f\n"
        "   interior in %lld chunk(s) (setting %d): t_both %.2f us, hidden %.3f\n",
        static_cast<long long>(cut), chunks, t.both * 1e6, hidden,
        static_cast<long long>(other_cut), other_chunk_setting(), t.both_other * 1e6, hidden_other);
    std::printf("   an exchange: begin (pack + start) %.2f us, end (wait + unpack) %.2f us\n",
                median(begins) * 1e6, median(ends) * 1e6);
    std::printf("   exchanges as expected (fresh update: none; stale update: one each): %s\n",
                counted ? "yes" : "NO");
    if (size < 2) std::printf("   1 rank: no neighbours, nothing to hide\n");
    std::printf("\n");
  }
  return size < 2 ? std::numeric_limits<double>::quiet_NaN() : hidden;
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
