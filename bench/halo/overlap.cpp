// bench/halo section 3: the update with a stale halo (begin, interior in chunks, end, the
// cells beside the halo) against the exchange and the update apart: the hidden fraction.
#include "halo_bench.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <vector>

#include <funcmesh/comm/halo_progress.hpp>

namespace halo_bench {

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

}  // namespace halo_bench
