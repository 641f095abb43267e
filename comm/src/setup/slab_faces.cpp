// The slab's faces matched locally as dual_graph matches a whole mesh's: the slab's nodes
// numbered compactly first (global ids need not be), faces bucketed by their smallest node
// (a counting sort), each stored as its other nodes and its cell in 32-bit words, and
// matched within each bucket; in rounds of node ranges when the faces exceed a round.
#include "slab_faces.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/core/error.hpp>

#include <funcmesh/comm/detail/exchange.hpp>
#include "compact_ids.hpp"

namespace funcmesh::setup_detail {

namespace {

using funcmesh::detail::at;

constexpr std::uint32_t unused = UINT32_MAX;

// A face in its smallest node's bucket: the other nodes' compact indices, ascending (unused
// entries all ones), and the slab cell.
struct face_rest {
  std::array<std::uint32_t, 3> nodes;
  std::uint32_t cell;
  bool same_face(const face_rest& o) const { return nodes == o.nodes; }
  bool operator<(const face_rest& o) const {
    if (nodes[0] != o.nodes[0]) return nodes[0] < o.nodes[0];
    if (nodes[1] != o.nodes[1]) return nodes[1] < o.nodes[1];
    if (nodes[2] != o.nodes[2]) return nodes[2] < o.nodes[2];
    return cell < o.cell;
  }
};

// The slab's distinct nodes numbered compactly (in id order), each cell entry's number,
// and which nodes the cells of another slab use too: each rank sends its distinct nodes to
// their slab ranks, which count the slabs per node and answer.
class slab_nodes {
 public:
  slab_nodes(MPI_Comm comm, const mesh_slab& slab) : ids_(slab.cells.nodes) {
    int ranks = 1;
    check_mpi(MPI_Comm_size(comm, &ranks), "MPI_Comm_size", comm);
    shared_.assign(ids_.size(), 0);
    if (ranks > 1) shared_ = ask(comm, ranks, slab, ids_.ids());
    if (ids_.size() >= unused || slab.cells.size() >= static_cast<index_t>(unused)) {
      throw error("funcmesh::distribute_slab: a slab of 2^32 - 1 cells or nodes or more");
    }
    entries_.resize(slab.cells.nodes.size());
    for (std::size_t k = 0; k < entries_.size(); ++k) {
      entries_[k] = static_cast<std::uint32_t>(ids_(slab.cells.nodes[k]));
    }
  }
  std::size_t count() const { return ids_.size(); }
  index_t id(std::uint32_t node) const { return ids_.ids()[node]; }
  // Cell entry k's compact node index (entries as in slab.cells.nodes).
  const std::uint32_t* entries() const { return entries_.data(); }
  bool shared(std::uint32_t node) const { return shared_[node] != 0; }

 private:
  // 1 for each of `distinct` (ascending) that another slab uses too.
  static std::vector<std::uint8_t> ask(MPI_Comm comm, int ranks, const mesh_slab& slab,
                                       const std::vector<index_t>& distinct) {
    outbox<index_t> asks(ranks);
    for (index_t n : distinct) asks.count(share_of(slab.global_nodes, ranks, n));
    asks.allocate();
    for (index_t n : distinct) asks.put(share_of(slab.global_nodes, ranks, n), n);
    const received<index_t> asked = asks.send(comm);
    int rank = 0;
    check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank", comm);
    const index_t mine = share_begin(slab.global_nodes, ranks, rank);
    std::vector<std::uint8_t> slabs(at(share_begin(slab.global_nodes, ranks, rank + 1) - mine), 0);
    for (index_t n : asked.data) slabs[at(n - mine)] += slabs[at(n - mine)] < 2 ? 1 : 0;
    std::vector<std::uint8_t> answers(asked.data.size());
    for (std::size_t k = 0; k < answers.size(); ++k) {
      answers[k] = slabs[at(asked.data[k] - mine)] >= 2 ? 1 : 0;
    }
    const received<std::uint8_t> got =
        exchange<std::uint8_t>(comm, std::span<const std::uint8_t>(answers), asked.offsets);
    return {got.data.begin(), got.data.end()};  // in `distinct` order: owners ascend with ids
  }

  compact_ids ids_;
  raw_vector<std::uint32_t> entries_;
  std::vector<std::uint8_t> shared_;  // by compact index
};

// Face f of slab cell c: its compact node indices, ascending; returns how many.
int face_of(const mesh_slab& slab, const slab_nodes& nodes, index_t c, int f,
            std::array<std::uint32_t, 4>& out) {
  const cell_type type = slab.cells.types[at(c)];
  const std::uint32_t* cell = nodes.entries() + slab.cells.offsets[at(c)];
  const auto local = face_nodes(type, f);
  for (std::size_t k = 0; k < local.size(); ++k) {  // insertion sort of at most four
    const std::uint32_t v = cell[local[k]];
    std::size_t pos = k;
    for (; pos > 0 && out[pos - 1] > v; --pos) out[pos] = out[pos - 1];
    out[pos] = v;
  }
  return static_cast<int>(local.size());
}

// The global key of a face from its bucket (smallest node) and rest.
face_key global_key(const slab_nodes& nodes, std::uint32_t low, const face_rest& r) {
  face_key key{nodes.id(low), -1, -1, -1};
  for (std::size_t k = 0; k < 3; ++k) key[k + 1] = r.nodes[k] == unused ? -1 : nodes.id(r.nodes[k]);
  return key;
}

std::string run_shared_by_many(const mesh_slab& slab, const face_rest* first,
                               const face_rest* last) {
  std::vector<index_t> cells;
  for (const face_rest* k = first; k != last; ++k) cells.push_back(slab.first_cell + k->cell);
  return setup_detail::shared_by_many(slab, cells);
}

// Sorts a bucket (a few dozen faces at most in usual meshes) and matches its runs.
void match_bucket(const mesh_slab& slab, const slab_nodes& nodes, std::uint32_t low,
                  face_rest* first, face_rest* last, slab_faces& out) {
  if (last - first > 32) {
    std::sort(first, last);
  } else {
    for (face_rest* k = first + 1; k < last; ++k) {
      const face_rest v = *k;
      face_rest* pos = k;
      for (; pos > first && v < pos[-1]; --pos) *pos = pos[-1];
      *pos = v;
    }
  }
  for (face_rest* k = first; k != last;) {
    face_rest* end = k + 1;
    while (end != last && end->same_face(*k)) ++end;
    if (end - k > 2) throw error(run_shared_by_many(slab, k, end));
    const index_t a = slab.first_cell + k->cell;
    if (end - k == 1) {
      out.surface.push_back({global_key(nodes, low, *k), a});
    } else if (k->cell == (k + 1)->cell) {
      // a cell's own face twice: no edge (as dual_graph)
    } else {
      const index_t b = slab.first_cell + (k + 1)->cell;
      bool shared = nodes.shared(low);
      for (std::uint32_t n : k->nodes) shared = shared && (n == unused || nodes.shared(n));
      if (shared) {  // a cell of another slab may have it too: the ranks must see it
        const face_key key = global_key(nodes, low, *k);
        out.surface.push_back({key, a});
        out.surface.push_back({key, b});
      } else {
        out.edges.push_back({a, b});
      }
    }
    k = end;
  }
}

}  // namespace

slab_faces match_slab_faces(MPI_Comm comm, const mesh_slab& slab) {
  const slab_nodes nodes(comm, slab);
  std::size_t faces = 0;
  for (index_t c = 0; c < slab.cells.size(); ++c) {
    faces += static_cast<std::size_t>(face_count(slab.cells.types[at(c)]));
  }
  // Each face's bucket: its smallest node's compact index.
  raw_vector<std::uint32_t> bucket(faces);
  std::array<std::uint32_t, 4> face{};
  {
    std::size_t k = 0;
    for (index_t c = 0; c < slab.cells.size(); ++c) {
      const cell_type type = slab.cells.types[at(c)];
      const std::uint32_t* cell = nodes.entries() + slab.cells.offsets[at(c)];
      for (int f = 0; f < face_count(type); ++f) {
        std::uint32_t low = unused;
        for (std::uint8_t j : face_nodes(type, f)) low = std::min(low, cell[j]);
        bucket[k++] = low;
      }
    }
  }
  const std::size_t rounds = faces * sizeof(face_rest) / round_budget() + 1;
  slab_faces out;
  out.edges.reserve(faces / 2);
  std::vector<std::size_t> start;
  raw_vector<face_rest> records;
  for (std::size_t round = 0; round < rounds; ++round) {
    // The buckets of nodes [low, low + width): a round holds about 1 / rounds of the faces.
    const std::size_t low = nodes.count() * round / rounds;
    const std::size_t width = nodes.count() * (round + 1) / rounds - low;
    start.assign(width + 1, 0);
    for (std::uint32_t b : bucket) {
      if (b - low < width) ++start[b - low + 1];
    }
    for (std::size_t b = 0; b < width; ++b) start[b + 1] += start[b];
    records.resize(start.back());
    std::vector<std::size_t> fill(start.begin(), start.end() - 1);
    std::size_t k = 0;
    for (index_t c = 0; c < slab.cells.size(); ++c) {
      const int count = face_count(slab.cells.types[at(c)]);
      for (int f = 0; f < count; ++f) {
        const std::size_t b = bucket[k++] - low;
        if (b >= width) continue;
        const int n = face_of(slab, nodes, c, f, face);
        face_rest& r = records[fill[b]++];
        r.nodes = {n > 1 ? face[1] : unused, n > 2 ? face[2] : unused, n > 3 ? face[3] : unused};
        r.cell = static_cast<std::uint32_t>(c);
      }
    }
    for (std::size_t b = 0; b < width; ++b) {
      match_bucket(slab, nodes, static_cast<std::uint32_t>(low + b), records.data() + start[b],
                   records.data() + start[b + 1], out);
    }
  }
  return out;
}

}  // namespace funcmesh::setup_detail
