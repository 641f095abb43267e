// Matching by key: each face (or node, for node adjacency) is sent as (sorted node ids,
// cell) to the rank its key hashes to; there equal keys sort next to each other. Replies
// go to the ranks whose slabs hold the cells (and, for boundary elements, the elements).
#include "slab_links.hpp"

#include <algorithm>
#include <array>
#include <string>

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/core/error.hpp>

#include "exchange.hpp"

namespace funcmesh::setup_detail {

namespace {

std::size_t at(index_t i) { return static_cast<std::size_t>(i); }

using key_type = std::array<index_t, 4>;

// A cell's face (cell >= 0: its global id) or a boundary element (cell = -1 - its row).
struct keyed {
  key_type key;
  index_t cell;
};

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t hash_of(const key_type& key) {
  std::uint64_t h = 0;
  for (index_t k : key) h = mix(h ^ static_cast<std::uint64_t>(k));
  return h;
}

key_type sorted_key(std::span<const index_t> nodes) {
  key_type key{-1, -1, -1, -1};
  for (std::size_t k = 0; k < nodes.size(); ++k) {  // insertion sort of <= 4 entries
    std::size_t pos = k;
    for (; pos > 0 && key[pos - 1] > nodes[k]; --pos) key[pos] = key[pos - 1];
    key[pos] = nodes[k];
  }
  return key;
}

struct world {
  MPI_Comm comm;
  int rank;
  int ranks;
};

// Every keyed record of this slab: faces of cells, boundary elements, and with node
// adjacency one record per cell node (key = {node, -1, -1, -1}, tagged by a 4th entry of
// -2 so they never meet a face's key).
template <class Visit>
void for_each_record(const mesh_slab& slab, adjacency by, Visit&& visit) {
  std::array<index_t, 4> face{};
  for (index_t c = 0; c < slab.cells.size(); ++c) {
    const cell_type type = slab.cells.types[at(c)];
    const auto nodes = slab.cells.nodes_of(c);
    const index_t gid = slab.first_cell + c;
    for (int f = 0; f < face_count(type); ++f) {
      const auto local = face_nodes(type, f);
      for (std::size_t j = 0; j < local.size(); ++j) face[j] = nodes[local[j]];
      visit(keyed{sorted_key({face.data(), local.size()}), gid});
    }
    if (by == adjacency::node) {
      for (index_t node : nodes) visit(keyed{{node, -1, -1, -2}, gid});
    }
  }
  for (index_t e = 0; e < slab.boundary.size(); ++e) {
    const auto nodes = slab.boundary.nodes_of(e);
    if (nodes.empty() || nodes.size() > 4) continue;  // as attach_boundary: not a face
    visit(keyed{sorted_key(nodes), -1 - (slab.first_boundary + e)});
  }
}

// Pairs (cell, neighbour) for the cells' slab ranks, and (boundary row, cell) for the
// elements' slab ranks, produced where the keys meet.
struct matches {
  outbox<std::array<index_t, 2>> pairs;
  outbox<std::array<index_t, 2>> attached;
  explicit matches(int ranks) : pairs(ranks), attached(ranks) {}
};

// Runs over the groups of equal keys twice (count, then put) so each outbox is sized once.
// Returns "" or what is wrong with the mesh.
std::string match(const world& w, const mesh_slab& slab, adjacency by, raw_vector<keyed>& records,
                  matches& out) {
  std::sort(records.begin(), records.end(), [](const keyed& a, const keyed& b) {
    return a.key != b.key ? a.key < b.key : a.cell < b.cell;
  });
  for (int pass = 0; pass < 2; ++pass) {
    const bool counting = pass == 0;
    auto pair = [&](index_t cell, index_t neighbour) {
      const int to = share_of(slab.global_cells, w.ranks, cell);
      if (counting) {
        out.pairs.count(to);
      } else {
        out.pairs.put(to, {cell, neighbour});
      }
    };
    for (std::size_t first = 0; first < records.size();) {
      std::size_t last = first + 1;
      while (last < records.size() && records[last].key == records[first].key) ++last;
      std::size_t cells_from = first;  // boundary elements (negative) sort first
      while (cells_from < last && records[cells_from].cell < 0) ++cells_from;
      const std::size_t cell_count = last - cells_from;
      if (records[first].key[3] == -2) {  // a node: every two cells around it are neighbours
        for (std::size_t a = cells_from; a < last; ++a) {
          for (std::size_t b = cells_from; b < last; ++b) {
            if (records[a].cell != records[b].cell) pair(records[a].cell, records[b].cell);
          }
        }
        first = last;
        continue;
      }
      if (by == adjacency::face && cell_count > 2) {
        std::string names;
        for (std::size_t k = cells_from; k < last; ++k) {
          names += (k > cells_from ? ", " : "") + std::to_string(records[k].cell);
        }
        return (slab.source.empty() ? std::string() : slab.source + ": ") + "a face is shared by " +
               std::to_string(cell_count) + " cells (global cell indices " + names +
               "): the mesh is not a manifold";
      }
      if (by == adjacency::face && cell_count == 2 &&
          records[cells_from].cell != records[cells_from + 1].cell) {
        pair(records[cells_from].cell, records[cells_from + 1].cell);
        pair(records[cells_from + 1].cell, records[cells_from].cell);
      }
      for (std::size_t e = first; e < cells_from; ++e) {
        const index_t row = -1 - records[e].cell;
        const int to = share_of(slab.global_boundary, w.ranks, row);
        for (std::size_t c = cells_from; c < last; ++c) {
          if (counting) {
            out.attached.count(to);
          } else {
            out.attached.put(to, {row, records[c].cell});
          }
        }
      }
      first = last;
    }
    if (counting) {
      out.pairs.allocate();
      out.attached.allocate();
    }
  }
  return {};
}

// The neighbours of each slab cell, from the (cell, neighbour) pairs sent to this rank.
void collect_neighbours(const mesh_slab& slab, received<std::array<index_t, 2>>& in,
                        slab_links& links) {
  std::sort(in.data.begin(), in.data.end());
  in.data.erase(std::unique(in.data.begin(), in.data.end()), in.data.end());
  links.offsets.assign(at(slab.cells.size()) + 1, 0);
  for (const auto& p : in.data) ++links.offsets[at(p[0] - slab.first_cell) + 1];
  for (std::size_t c = 0; c + 1 < links.offsets.size(); ++c) {
    links.offsets[c + 1] += links.offsets[c];
  }
  links.neighbours.resize(in.data.size());
  for (std::size_t k = 0; k < in.data.size(); ++k) links.neighbours[k] = in.data[k][1];
  raw_vector<std::array<index_t, 2>>().swap(in.data);
}

// Boundary elements to the slab ranks of the cells they are faces of: at each element's
// own rank, (row, cell) becomes [cell, row, type, id, physical, node count, nodes...].
void collect_boundary(const world& w, const mesh_slab& slab,
                      received<std::array<index_t, 2>>& attached, slab_links& links) {
  outbox<index_t> out(w.ranks);
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& [row, cell] : attached.data) {
      const index_t e = row - slab.first_boundary;
      const auto nodes = slab.boundary.nodes_of(e);
      const int to = share_of(slab.global_cells, w.ranks, cell);
      if (pass == 0) {
        out.count(to, 6 + nodes.size());
        continue;
      }
      for (index_t v : {cell, row, static_cast<index_t>(slab.boundary.types[at(e)]),
                        static_cast<index_t>(slab.boundary.ids[at(e)]),
                        static_cast<index_t>(slab.boundary.physical[at(e)]),
                        static_cast<index_t>(nodes.size())}) {
        out.put(to, v);
      }
      for (index_t node : nodes) out.put(to, node);
    }
    if (pass == 0) out.allocate();
  }
  raw_vector<std::array<index_t, 2>>().swap(attached.data);
  const received<index_t> in = out.send(w.comm);
  // (cell, row, position in `in`), sorted: each cell's elements by ascending row.
  std::vector<std::array<index_t, 3>> order;
  for (std::size_t k = 0; k < in.data.size(); k += 6 + at(in.data[k + 5])) {
    order.push_back({in.data[k], in.data[k + 1], static_cast<index_t>(k)});
  }
  std::sort(order.begin(), order.end());
  links.boundary_offsets.assign(at(slab.cells.size()) + 1, 0);
  for (const auto& o : order) ++links.boundary_offsets[at(o[0] - slab.first_cell) + 1];
  for (std::size_t c = 0; c + 1 < links.boundary_offsets.size(); ++c) {
    links.boundary_offsets[c + 1] += links.boundary_offsets[c];
  }
  for (const auto& o : order) {
    const index_t* record = in.data.data() + o[2];
    links.boundary_rows.push_back(record[1]);
    links.boundary.add(static_cast<cell_type>(record[2]),
                       {record + 6, static_cast<std::size_t>(record[5])}, record[3],
                       static_cast<int>(record[4]));
  }
}

}  // namespace

slab_links link_slab(MPI_Comm comm, const mesh_slab& slab, adjacency by) {
  world w{comm, 0, 1};
  check_mpi(MPI_Comm_rank(comm, &w.rank), "MPI_Comm_rank", comm);
  check_mpi(MPI_Comm_size(comm, &w.ranks), "MPI_Comm_size", comm);
  // Keys go in rounds (by hash: a key's round and rank both follow from it), so that a
  // round's records are a bounded part of the set-up's memory.
  std::size_t count = 0;
  for_each_record(slab, by, [&](const keyed&) { ++count; });
  const int rounds = rounds_for(comm, count * sizeof(keyed));
  const auto place = [&](const keyed& r, int& round) {
    const std::uint64_t h = hash_of(r.key);
    round = static_cast<int>((h / static_cast<std::uint64_t>(w.ranks)) %
                             static_cast<std::uint64_t>(rounds));
    return static_cast<int>(h % static_cast<std::uint64_t>(w.ranks));
  };
  received<std::array<index_t, 2>> pairs, attached;
  pairs.offsets.assign(static_cast<std::size_t>(w.ranks) + 1, 0);
  attached.offsets = pairs.offsets;
  for (int round = 0; round < rounds; ++round) {
    received<keyed> records;
    {
      outbox<keyed> out(w.ranks);
      int r_round = 0;
      for_each_record(slab, by, [&](const keyed& r) {
        const int to = place(r, r_round);
        if (r_round == round) out.count(to);
      });
      out.allocate();
      for_each_record(slab, by, [&](const keyed& r) {
        const int to = place(r, r_round);
        if (r_round == round) out.put(to, r);
      });
      records = out.send(comm);
    }
    matches found(w.ranks);
    std::string failure;
    try {
      failure = match(w, slab, by, records.data, found);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    raw_vector<keyed>().swap(records.data);
    mpi::agree(mpi::communicator(comm), failure);
    const auto more_pairs = found.pairs.send(comm);
    pairs.data.insert(pairs.data.end(), more_pairs.data.begin(), more_pairs.data.end());
    const auto more_attached = found.attached.send(comm);
    attached.data.insert(attached.data.end(), more_attached.data.begin(), more_attached.data.end());
  }
  slab_links links;
  collect_neighbours(slab, pairs, links);
  collect_boundary(w, slab, attached, links);
  return links;
}

}  // namespace funcmesh::setup_detail
