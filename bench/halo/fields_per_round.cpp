// bench/halo section 2b: a halo round of 1, 2 and 4 fields with one message per neighbour
// (as halo_plan sends them) against one message per field, interleaved in one process.
#include "halo_bench.hpp"

#include <cstdint>
#include <cstdio>
#include <functional>
#include <span>

namespace halo_bench {

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

}  // namespace halo_bench
