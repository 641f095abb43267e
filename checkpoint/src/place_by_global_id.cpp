// Three all-to-alls: the rows read go to the directory rank of their global id; each rank
// asks the directory ranks of its owned cells' ids; the directory answers in the order
// asked, so the answers need no ids.
#include "place_by_global_id.hpp"

#include <algorithm>

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/detail/exchange.hpp>

namespace funcmesh::detail {

namespace {

using setup_detail::outbox;
using setup_detail::raw_vector;

// The directory: rank r keeps the global ids [r * share, (r + 1) * share), share being
// ceil(cells / ranks) (the last ranks may keep fewer, or none).
struct directory {
  std::int64_t cells, share;
  int rank_of(std::int64_t g) const { return static_cast<int>(g / share); }
  std::int64_t first_of(int r) const { return std::min(cells, r * share); }
};

}  // namespace

std::vector<raw_vector<double>> place_by_global_id(const distributed_layout& layout,
                                                   std::span<const std::int64_t> ids,
                                                   const std::vector<raw_vector<double>>& columns,
                                                   const std::vector<int>& components,
                                                   const std::string& who,
                                                   const std::filesystem::path& file) {
  const mpi::communicator comm(layout.comm());
  const MPI_Comm raw = layout.comm();
  const int ranks = comm.size(), me = comm.rank();
  const std::int64_t cells = layout.global_cells();
  const directory dir{cells, std::max<std::int64_t>(1, (cells + ranks - 1) / ranks)};
  std::size_t width = 0;
  for (const int c : components) width += static_cast<std::size_t>(c);
  std::string failure;
  auto fail = [&](const std::string& what) {
    if (failure.empty()) failure = who + ": " + file.string() + ": " + what;
  };

  // 1. The rows read, to their directory rank (rows with an impossible id are dropped).
  outbox<std::int64_t> ids_out(ranks);
  outbox<double> rows_out(ranks);
  for (const std::int64_t g : ids) {
    if (g < 0 || g >= cells) continue;
    ids_out.count(dir.rank_of(g));
    rows_out.count(dir.rank_of(g), width);
  }
  ids_out.allocate();
  rows_out.allocate();
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const std::int64_t g = ids[k];
    if (g < 0 || g >= cells) {
      fail("global id " + std::to_string(g) + " is out of range (0 to " +
           std::to_string(cells - 1) + ")");
      continue;
    }
    const int d = dir.rank_of(g);
    ids_out.put(d, g);
    for (std::size_t f = 0; f < columns.size(); ++f) {
      const auto c = static_cast<std::size_t>(components[f]);
      for (std::size_t m = 0; m < c; ++m) rows_out.put(d, columns[f][k * c + m]);
    }
  }
  // 2. The owned cells' ids, to their directory rank.
  const auto owned = static_cast<std::size_t>(layout.owned_count());
  const auto& global = layout.mesh().global_cell;
  outbox<std::int64_t> asked(ranks);
  for (std::size_t c = 0; c < owned; ++c) asked.count(dir.rank_of(global[c]));
  asked.allocate();
  for (std::size_t c = 0; c < owned; ++c) asked.put(dir.rank_of(global[c]), global[c]);
  const auto ids_in = ids_out.send(raw);
  const auto rows_in = rows_out.send(raw);
  const auto asked_in = asked.send(raw);

  // 3. The directory's rows, by global id.
  const std::int64_t first = dir.first_of(me), last = dir.first_of(me + 1);
  const auto kept = static_cast<std::size_t>(std::max<std::int64_t>(last - first, 0));
  raw_vector<double> table(kept * width);
  std::vector<char> seen(kept, 0);
  for (std::size_t k = 0; k < ids_in.data.size(); ++k) {
    const auto slot = static_cast<std::size_t>(ids_in.data[k] - first);
    if (seen[slot] != 0) {
      fail("global id " + std::to_string(ids_in.data[k]) + " has two rows");
      continue;
    }
    seen[slot] = 1;
    std::copy_n(rows_in.data.data() + k * width, width, table.data() + slot * width);
  }
  // 4. The answers, in the order asked.
  outbox<double> answers(ranks);
  for (int s = 0; s < ranks; ++s) answers.count(s, asked_in.from(s).size() * width);
  answers.allocate();
  for (int s = 0; s < ranks; ++s) {
    for (const std::int64_t g : asked_in.from(s)) {
      const auto slot = static_cast<std::size_t>(g - first);
      if (seen[slot] == 0) fail("global id " + std::to_string(g) + " has no row");
      for (std::size_t m = 0; m < width; ++m) answers.put(s, table[slot * width + m]);
    }
  }
  const auto answers_in = answers.send(raw);

  // 5. Into local order.
  std::vector<raw_vector<double>> values(columns.size());
  for (std::size_t f = 0; f < columns.size(); ++f) {
    values[f].resize(owned * static_cast<std::size_t>(components[f]));
  }
  std::vector<std::size_t> next(static_cast<std::size_t>(ranks), 0);
  for (std::size_t c = 0; c < owned; ++c) {
    const auto d = static_cast<std::size_t>(dir.rank_of(global[c]));
    const double* row = answers_in.data.data() + answers_in.offsets[d] + next[d]++ * width;
    for (std::size_t f = 0; f < columns.size(); ++f) {
      const auto n = static_cast<std::size_t>(components[f]);
      std::copy_n(row, n, values[f].data() + c * n);
      row += n;
    }
  }
  mpi::agree(comm, failure);
  return values;
}

}  // namespace funcmesh::detail
