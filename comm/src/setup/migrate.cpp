// Three kinds of messages, each one all-to-all: the parts of the slab cells' neighbours
// (asked of the neighbours' slab ranks), the cells to their owners (with the neighbours'
// parts, so an owner knows its halo's owners), then per halo level the halo cells' records
// from their owners.
#include "migrate.hpp"

#include <algorithm>

#include <funcmesh/comm/mpi_error.hpp>

#include "exchange.hpp"

namespace funcmesh::setup_detail {

namespace {

std::size_t at(index_t i) { return static_cast<std::size_t>(i); }

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

// Writes slab cell c's record through put(value) (or counts it with put ignoring values).
template <class Put>
void write_record(const mesh_slab& slab, const slab_links& links, std::span<const int> parts_of,
                  index_t c, Put&& put) {
  const auto nodes = slab.cells.nodes_of(c);
  put(slab.first_cell + c);
  put(static_cast<index_t>(slab.cells.types[at(c)]));
  put(static_cast<index_t>(slab.cells.ids[at(c)]));
  put(static_cast<index_t>(slab.cells.physical[at(c)]));
  put(static_cast<index_t>(nodes.size()));
  for (index_t node : nodes) put(node);
  const index_t n0 = links.offsets[at(c)], n1 = links.offsets[at(c) + 1];
  put(n1 - n0);
  for (index_t k = n0; k < n1; ++k) {
    put(links.neighbours[at(k)]);
    put(static_cast<index_t>(parts_of[at(k)]));
  }
  const index_t b0 = links.boundary_offsets[at(c)], b1 = links.boundary_offsets[at(c) + 1];
  put(b1 - b0);
  for (index_t k = b0; k < b1; ++k) {
    const auto element = links.boundary.nodes_of(k);
    put(links.boundary_rows[at(k)]);
    put(static_cast<index_t>(links.boundary.types[at(k)]));
    put(static_cast<index_t>(links.boundary.ids[at(k)]));
    put(static_cast<index_t>(links.boundary.physical[at(k)]));
    put(static_cast<index_t>(element.size()));
    for (index_t node : element) put(node);
  }
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
    // In rounds of consecutive slab cells: one round's records, sent and received, are
    // alive at a time besides what was received before.
    std::size_t bytes = 0;
    for (index_t c = 0; c < slab.cells.size(); ++c) {
      write_record(slab, links, parts_of, c, [&](index_t) { bytes += sizeof(index_t); });
    }
    const int rounds = rounds_for(comm, bytes);
    raw_vector<index_t> owned;
    for (int round = 0; round < rounds; ++round) {
      const index_t first = share_begin(slab.cells.size(), rounds, round);
      const index_t last = share_begin(slab.cells.size(), rounds, round + 1);
      outbox<index_t> out(ranks);
      for (index_t c = first; c < last; ++c) {
        write_record(slab, links, parts_of, c, [&](index_t) { out.count(part[at(c)]); });
      }
      out.allocate();
      for (index_t c = first; c < last; ++c) {
        write_record(slab, links, parts_of, c, [&](index_t v) { out.put(part[at(c)], v); });
      }
      if (round + 1 == rounds) links = slab_links{};
      received<index_t> in = out.send(comm);
      if (rounds == 1) {
        owned = std::move(in.data);
      } else {
        owned.insert(owned.end(), in.data.begin(), in.data.end());
      }
    }
    result.owned = cell_store(std::move(owned));
  }
  // Level by level: the neighbours of the last level that are neither owned nor known.
  std::vector<std::pair<int, index_t>> wanted;
  std::vector<index_t> level;  // gids of the last level
  for (std::size_t k = 0; k < result.owned.count(); ++k) level.push_back(result.owned[k].gid());
  for (int step = 1; step <= depth; ++step) {
    wanted.clear();
    for (index_t gid : level) {
      const index_t* at_owned = result.owned.find(gid);
      const cell_record r(at_owned != nullptr ? at_owned : result.halo.find(gid));
      for (index_t k = 0; k < r.neighbour_count(); ++k) {
        const index_t n = r.neighbour(k);
        if (r.neighbour_part(k) == rank || result.halo.find(n) != nullptr) continue;
        wanted.emplace_back(r.neighbour_part(k), n);
      }
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
