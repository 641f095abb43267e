// Faces of one slab are matched on their rank (slab_faces); the rest meet by key: each face
// on a slab's surface, each boundary element (and, for node adjacency, every face and every
// cell node) is sent as (sorted node ids, cell) to the rank its key hashes to, where equal
// keys sort next to each other. Replies go to the ranks whose slabs hold the cells (and,
// for boundary elements, the elements).
#include "slab_links.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/core/error.hpp>

#include <funcmesh/comm/detail/exchange.hpp>
#include "face_key.hpp"
#include "slab_faces.hpp"

namespace funcmesh::setup_detail {

namespace {

using funcmesh::detail::at;

using pair_list = raw_vector<std::array<index_t, 2>>;

struct world {
  MPI_Comm comm;
  int rank;
  int ranks;
};

void agree(MPI_Comm comm, const std::string& failure) {
  mpi::agree(mpi::communicator(comm), failure);
}

// The records sent by key: with face adjacency the slab's surface faces, with node
// adjacency every face and one record per cell node (key {node, -1, -1, -2}: never a
// face's); then the boundary elements.
template <class Visit>
void for_each_record(const mesh_slab& slab, adjacency by, const slab_faces& local, Visit&& visit) {
  if (by == adjacency::face) {
    for (const keyed& f : local.surface) visit(f);
  } else {
    for_each_face(slab, [&](const face_key& key, index_t c) { visit({key, slab.first_cell + c}); });
    for (index_t c = 0; c < slab.cells.size(); ++c) {
      for (index_t node : slab.cells.nodes_of(c)) visit({{node, -1, -1, -2}, slab.first_cell + c});
    }
  }
  for (index_t e = 0; e < slab.boundary.size(); ++e) {
    const auto nodes = slab.boundary.nodes_of(e);
    if (nodes.empty() || nodes.size() > 4) continue;  // as attach_boundary: not a face
    visit(keyed{sorted_key(nodes), -1 - (slab.first_boundary + e)});
  }
}

// What the keys' meeting produces: pairs (cell, neighbour) for the cells' slab ranks,
// (boundary row, cell) for the elements' slab ranks, and the elements that met no face
// here (with face adjacency: on an internal surface, whose face was matched in a slab).
struct matches {
  outbox<std::array<index_t, 2>> pairs;
  outbox<std::array<index_t, 2>> attached;
  raw_vector<keyed> unmet;
  explicit matches(int ranks) : pairs(ranks), attached(ranks) {}
};

// Runs over the groups of equal keys twice (count, then put) so each outbox is sized once.
// Returns "" or what is wrong with the mesh.
std::string match(const world& w, const mesh_slab& slab, adjacency by, raw_vector<keyed>& records,
                  matches& out) {
  std::sort(records.begin(), records.end(), key_then_cell);
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
        std::vector<index_t> cells;
        for (std::size_t k = cells_from; k < last; ++k) cells.push_back(records[k].cell);
        return shared_by_many(slab, cells);
      }
      if (by == adjacency::face && cell_count == 2 &&
          records[cells_from].cell != records[cells_from + 1].cell) {
        pair(records[cells_from].cell, records[cells_from + 1].cell);
        pair(records[cells_from + 1].cell, records[cells_from].cell);
      }
      if (!counting && by == adjacency::face && cell_count == 0) {
        out.unmet.insert(out.unmet.end(), records.begin() + static_cast<std::ptrdiff_t>(first),
                         records.begin() + static_cast<std::ptrdiff_t>(last));
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

// Boundary elements on internal surfaces: their faces were matched inside a slab and never
// travelled, so the elements that met no face are shown to every rank (in rounds), and
// each rank looks for them among its slab's faces. Returns (row, cell) pairs for the
// elements' slab ranks. Rare: only meshes with internal surfaces (or elements on no face,
// which attach to nothing, as in attach_boundary) pay for it.
pair_list attach_unmet(const world& w, const mesh_slab& slab, raw_vector<keyed> unmet) {
  // Only elements with as many nodes as a face of a cell of the mesh's dimension can be
  // one (points and lines in a 3-D mesh attach to nothing).
  std::erase_if(unmet, [&](const keyed& e) {
    const auto nodes = std::count_if(e.key.begin(), e.key.end(), [](index_t n) { return n >= 0; });
    return slab.dimension == 3 ? nodes < 3 : nodes != slab.dimension;
  });
  unsigned long long total = unmet.size();
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, w.comm),
            "MPI_Allreduce (set-up unmet elements)", w.comm);
  if (total == 0) return {};
  outbox<std::array<index_t, 2>> out(w.ranks);
  std::vector<std::array<index_t, 3>> found;  // (to, row, cell)
  const int rounds = rounds_for(w.comm, total * sizeof(keyed));
  for (int round = 0; round < rounds; ++round) {
    const auto first =
        static_cast<std::size_t>(share_begin(static_cast<index_t>(unmet.size()), rounds, round));
    const auto last = static_cast<std::size_t>(
        share_begin(static_cast<index_t>(unmet.size()), rounds, round + 1));
    int mine = static_cast<int>((last - first) * sizeof(keyed));
    std::vector<int> counts(static_cast<std::size_t>(w.ranks)), displs(counts.size(), 0);
    check_mpi(MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, w.comm),
              "MPI_Allgather (set-up unmet elements)", w.comm);
    for (std::size_t q = 1; q < counts.size(); ++q) displs[q] = displs[q - 1] + counts[q - 1];
    raw_vector<keyed> all(static_cast<std::size_t>(displs.back() + counts.back()) / sizeof(keyed));
    check_mpi(MPI_Allgatherv(unmet.data() + first, mine, MPI_BYTE, all.data(), counts.data(),
                             displs.data(), MPI_BYTE, w.comm),
              "MPI_Allgatherv (set-up unmet elements)", w.comm);
    std::sort(all.begin(), all.end(), key_then_cell);
    for_each_face(slab, [&](const face_key& key, index_t c) {
      auto it = std::lower_bound(all.begin(), all.end(),
                                 keyed{key, std::numeric_limits<index_t>::min()}, key_then_cell);
      for (; it != all.end() && it->key == key; ++it) {
        const index_t row = -1 - it->cell;
        found.push_back({share_of(slab.global_boundary, w.ranks, row), row, slab.first_cell + c});
      }
    });
  }
  std::sort(found.begin(), found.end());  // a cell's repeated face attaches it once
  found.erase(std::unique(found.begin(), found.end()), found.end());
  for (const auto& f : found) out.count(static_cast<int>(f[0]));
  out.allocate();
  for (const auto& f : found) out.put(static_cast<int>(f[0]), {f[1], f[2]});
  return std::move(out.send(w.comm).data);
}

// Slab cell c's neighbours: from the slab's own edges (both ways) and the pairs sent here,
// each list ascending and without repeats.
void collect_neighbours(const mesh_slab& slab, pair_list& edges, pair_list& pairs,
                        slab_links& links) {
  const index_t first = slab.first_cell;
  std::vector<index_t>& offsets = links.offsets;
  offsets.assign(at(slab.cells.size()) + 1, 0);
  for (const auto& [a, b] : edges) {
    ++offsets[at(a - first) + 1];
    ++offsets[at(b - first) + 1];
  }
  for (const auto& p : pairs) ++offsets[at(p[0] - first) + 1];
  for (std::size_t c = 0; c + 1 < offsets.size(); ++c) offsets[c + 1] += offsets[c];
  links.neighbours.resize(at(offsets.back()));
  {
    std::vector<index_t> fill(offsets.begin(), offsets.end() - 1);
    for (const auto& [a, b] : edges) {
      links.neighbours[at(fill[at(a - first)]++)] = b;
      links.neighbours[at(fill[at(b - first)]++)] = a;
    }
    pair_list().swap(edges);
    for (const auto& p : pairs) links.neighbours[at(fill[at(p[0] - first)]++)] = p[1];
    pair_list().swap(pairs);
  }
  // Sorted per cell, repeats dropped (two cells that share two faces are one edge).
  std::size_t kept = 0;
  for (std::size_t c = 0; c + 1 < offsets.size(); ++c) {
    const auto begin = links.neighbours.begin() + offsets[c];
    const auto end = links.neighbours.begin() + offsets[c + 1];
    std::sort(begin, end);
    const auto unique_end = std::unique(begin, end);
    offsets[c] = static_cast<index_t>(kept);
    for (auto it = begin; it != unique_end; ++it) links.neighbours[kept++] = *it;
  }
  offsets.back() = static_cast<index_t>(kept);
  links.neighbours.resize(kept);
}

// Boundary elements to the slab ranks of the cells they are faces of: at each element's
// own rank, (row, cell) becomes [cell, row, type, id, physical, node count, nodes...].
void collect_boundary(const world& w, const mesh_slab& slab, pair_list& attached,
                      slab_links& links) {
  outbox<index_t> out(w.ranks);
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& [row, cell] : attached) {
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
  pair_list().swap(attached);
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

void append(pair_list& to, const pair_list& more) { to.insert(to.end(), more.begin(), more.end()); }

}  // namespace

slab_links link_slab(MPI_Comm comm, const mesh_slab& slab, adjacency by) {
  world w{comm, 0, 1};
  check_mpi(MPI_Comm_rank(comm, &w.rank), "MPI_Comm_rank", comm);
  check_mpi(MPI_Comm_size(comm, &w.ranks), "MPI_Comm_size", comm);
  slab_faces local;
  if (by == adjacency::face) {
    std::string failure;
    try {
      local = match_slab_faces(comm, slab);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    agree(comm, failure);
  }
  // Keys go in rounds (by hash: a key's round and rank both follow from it), so that a
  // round's records are a bounded part of the set-up's memory.
  std::size_t count = 0;
  for_each_record(slab, by, local, [&](const keyed&) { ++count; });
  const int rounds = rounds_for(comm, count * sizeof(keyed));
  const auto place = [&](const keyed& r, int& round) {
    const std::uint64_t h = hash_of(r.key);
    round = static_cast<int>((h / static_cast<std::uint64_t>(w.ranks)) %
                             static_cast<std::uint64_t>(rounds));
    return static_cast<int>(h % static_cast<std::uint64_t>(w.ranks));
  };
  pair_list pairs, attached;
  raw_vector<keyed> unmet;
  for (int round = 0; round < rounds; ++round) {
    received<keyed> records;
    {
      outbox<keyed> out(w.ranks);
      int r_round = 0;
      for_each_record(slab, by, local, [&](const keyed& r) {
        const int to = place(r, r_round);
        if (r_round == round) out.count(to);
      });
      out.allocate();
      for_each_record(slab, by, local, [&](const keyed& r) {
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
    agree(comm, failure);
    append(pairs, found.pairs.send(comm).data);
    append(attached, found.attached.send(comm).data);
    unmet.insert(unmet.end(), found.unmet.begin(), found.unmet.end());
  }
  raw_vector<keyed>().swap(local.surface);
  if (by == adjacency::face) append(attached, attach_unmet(w, slab, std::move(unmet)));
  slab_links links;
  collect_neighbours(slab, local.edges, pairs, links);
  collect_boundary(w, slab, attached, links);
  return links;
}

}  // namespace funcmesh::setup_detail
