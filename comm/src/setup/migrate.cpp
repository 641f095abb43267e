// Three kinds of messages, each one all-to-all: the parts of the slab cells' neighbours
// (asked of the neighbours' slab ranks), the cells to their owners (with the neighbours'
// parts, so an owner knows its halo's owners), then per halo level the halo cells' records
// from their owners.
#include "migrate.hpp"

#include <algorithm>

#include <funcmesh/comm/mpi_error.hpp>

#include <funcmesh/comm/detail/exchange.hpp>

namespace funcmesh::setup_detail {

namespace {

using funcmesh::detail::at;

// The part of every slab cell's neighbour, aligned with links.neighbours.
std::vector<int> neighbour_parts(MPI_Comm comm, int ranks, const mesh_slab& slab,
                                 const slab_links& links, std::span<const int> part) {
  const index_t first = slab.first_cell, last = slab.first_cell + slab.cells.size();
  std::vector<index_t> wanted;
  for (index_t n : links.neighbours) {
    if (n < first || n >= last) wanted.push_back(n);
  }
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  outbox<index_t> asks(ranks);
  for (index_t n : wanted) asks.count(share_of(slab.global_cells, ranks, n));
  asks.allocate();
  for (index_t n : wanted) asks.put(share_of(slab.global_cells, ranks, n), n);
  const received<index_t> asked = asks.send(comm);
  std::vector<int> answers(asked.data.size());
  for (std::size_t k = 0; k < answers.size(); ++k) answers[k] = part[at(asked.data[k] - first)];
  const received<int> got =
      exchange<int>(comm, std::span<const int>(answers), asked.offsets);  // in `wanted` order
  std::vector<int> result(links.neighbours.size());
  for (std::size_t k = 0; k < result.size(); ++k) {
    const index_t n = links.neighbours[k];
    result[k] =
        n >= first && n < last
            ? part[at(n - first)]
            : got.data[at(std::lower_bound(wanted.begin(), wanted.end(), n) - wanted.begin())];
  }
  return result;
}

// The length of slab cell c's record (cell_record's layout), in integers.
std::size_t record_size(const mesh_slab& slab, const slab_links& links, index_t c) {
  std::size_t size =
      7 + slab.cells.nodes_of(c).size() + 2 * at(links.offsets[at(c) + 1] - links.offsets[at(c)]);
  for (index_t k = links.boundary_offsets[at(c)]; k < links.boundary_offsets[at(c) + 1]; ++k) {
    size += 5 + links.boundary.nodes_of(k).size();
  }
  return size;
}

// Writes slab cell c's record at `out`; returns the end of what it wrote.
index_t* write_record(const mesh_slab& slab, const slab_links& links, std::span<const int> parts_of,
                      index_t c, index_t* out) {
  const auto nodes = slab.cells.nodes_of(c);
  *out++ = slab.first_cell + c;
  *out++ = static_cast<index_t>(slab.cells.types[at(c)]);
  *out++ = static_cast<index_t>(slab.cells.ids[at(c)]);
  *out++ = static_cast<index_t>(slab.cells.physical[at(c)]);
  *out++ = static_cast<index_t>(nodes.size());
  out = std::copy(nodes.begin(), nodes.end(), out);
  const index_t n0 = links.offsets[at(c)], n1 = links.offsets[at(c) + 1];
  *out++ = n1 - n0;
  for (index_t k = n0; k < n1; ++k) {
    *out++ = links.neighbours[at(k)];
    *out++ = static_cast<index_t>(parts_of[at(k)]);
  }
  const index_t b0 = links.boundary_offsets[at(c)], b1 = links.boundary_offsets[at(c) + 1];
  *out++ = b1 - b0;
  for (index_t k = b0; k < b1; ++k) {
    const auto element = links.boundary.nodes_of(k);
    *out++ = links.boundary_rows[at(k)];
    *out++ = static_cast<index_t>(links.boundary.types[at(k)]);
    *out++ = static_cast<index_t>(links.boundary.ids[at(k)]);
    *out++ = static_cast<index_t>(links.boundary.physical[at(k)]);
    *out++ = static_cast<index_t>(element.size());
    out = std::copy(element.begin(), element.end(), out);
  }
  return out;
}

// Records of `wanted` (sorted (owner, gid) pairs) fetched from their owners' stores.
raw_vector<index_t> fetch_records(MPI_Comm comm, int ranks, const cell_store& owned,
                                  std::span<const std::pair<int, index_t>> wanted) {
  outbox<index_t> asks(ranks);
  for (const auto& [owner, gid] : wanted) asks.count(owner);
  asks.allocate();
  for (const auto& [owner, gid] : wanted) asks.put(owner, gid);
  const received<index_t> asked = asks.send(comm);
  outbox<index_t> replies(ranks);
  for (int pass = 0; pass < 2; ++pass) {
    for (int q = 0; q < ranks; ++q) {
      for (index_t gid : asked.from(q)) {
        const index_t* record = owned.find(gid);
        if (record == nullptr) continue;  // cannot happen: the asker got the owner from us
        const std::size_t size = cell_record(record).size();
        if (pass == 0) {
          replies.count(q, size);
        } else {
          for (std::size_t k = 0; k < size; ++k) replies.put(q, record[k]);
        }
      }
    }
    if (pass == 0) replies.allocate();
  }
  return std::move(replies.send(comm).data);
}

}  // namespace

region migrate(MPI_Comm comm, const mesh_slab& slab, slab_links& links, std::span<const int> part,
               int depth) {
  int ranks = 1, rank = 0;
  check_mpi(MPI_Comm_size(comm, &ranks), "MPI_Comm_size", comm);
  check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank", comm);
  const std::vector<int> parts_of = neighbour_parts(comm, ranks, slab, links, part);
  region result;
  {
    // In rounds of consecutive slab cells, through one send buffer: a round's records are
    // alive at a time beside the owned records, which arrive in place (their total is
    // known first, so the array is allocated once).
    std::vector<std::size_t> offsets(static_cast<std::size_t>(ranks) + 1, 0);
    std::size_t bytes = 0;
    for (index_t c = 0; c < slab.cells.size(); ++c) {
      const std::size_t size = record_size(slab, links, c);
      offsets[static_cast<std::size_t>(part[at(c)]) + 1] += size;
      bytes += sizeof(index_t) * size;
    }
    for (std::size_t q = 0; q < static_cast<std::size_t>(ranks); ++q) offsets[q + 1] += offsets[q];
    raw_vector<index_t> owned(exchange_counts(comm, offsets).back());
    // A round's send buffer is at most an eighth of the records: beside the owned records
    // it is the migration's peak, which on many ranks is the whole set-up's.
    const int rounds = rounds_for(comm, bytes, 8);
    raw_vector<index_t> buffer;
    std::size_t arrived = 0;
    for (int round = 0; round < rounds; ++round) {
      const index_t first = share_begin(slab.cells.size(), rounds, round);
      const index_t last = share_begin(slab.cells.size(), rounds, round + 1);
      std::fill(offsets.begin(), offsets.end(), 0);
      for (index_t c = first; c < last; ++c) {
        offsets[static_cast<std::size_t>(part[at(c)]) + 1] += record_size(slab, links, c);
      }
      for (std::size_t q = 0; q < static_cast<std::size_t>(ranks); ++q) {
        offsets[q + 1] += offsets[q];
      }
      buffer.resize(offsets.back());
      std::vector<std::size_t> fill(offsets.begin(), offsets.end() - 1);
      for (index_t c = first; c < last; ++c) {
        std::size_t& at_fill = fill[static_cast<std::size_t>(part[at(c)])];
        index_t* const begin = buffer.data() + at_fill;
        at_fill += static_cast<std::size_t>(write_record(slab, links, parts_of, c, begin) - begin);
      }
      if (round + 1 == rounds) links = slab_links{};
      std::vector<std::size_t> byte_offsets(offsets);
      for (std::size_t& o : byte_offsets) o *= sizeof(index_t);
      const std::vector<std::size_t> in = exchange_counts(comm, byte_offsets);
      exchange_payload(comm, std::as_bytes(std::span<const index_t>(buffer)), byte_offsets,
                       reinterpret_cast<std::byte*>(owned.data() + arrived), in);
      arrived += in.back() / sizeof(index_t);
    }
    raw_vector<index_t>().swap(buffer);
    result.owned = cell_store(std::move(owned));
  }
  // Level by level: the neighbours of the last level (first the owned cells, then the
  // halo cells fetched last) that are neither owned nor known.
  std::vector<std::pair<int, index_t>> wanted;
  std::vector<index_t> level;  // gids of the last level's halo cells
  const auto want_neighbours = [&](const cell_record& r) {
    for (index_t k = 0; k < r.neighbour_count(); ++k) {
      const index_t n = r.neighbour(k);
      if (r.neighbour_part(k) == rank || result.halo.find(n) != nullptr) continue;
      wanted.emplace_back(r.neighbour_part(k), n);
    }
  };
  for (int step = 1; step <= depth; ++step) {
    wanted.clear();
    if (step == 1) {
      for (std::size_t k = 0; k < result.owned.count(); ++k) want_neighbours(result.owned[k]);
    } else {
      for (index_t gid : level) want_neighbours(cell_record(result.halo.find(gid)));
    }
    std::sort(wanted.begin(), wanted.end());
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    level.clear();
    for (const auto& [owner, gid] : wanted) {
      result.halo_part.emplace_back(gid, owner);
      level.push_back(gid);
    }
    result.halo.append(fetch_records(comm, ranks, result.owned, wanted));
    result.halo.sort();
  }
  std::sort(result.halo_part.begin(), result.halo_part.end());
  return result;
}

}  // namespace funcmesh::setup_detail
