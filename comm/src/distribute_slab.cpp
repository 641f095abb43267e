// The parallel set-up in four collective phases: link (dual graph and boundary elements by
// hashed keys), partition, migrate (cells to owners, halos level by level), build (the
// local mesh by build_local_mesh on the region each rank holds). A check that fails on one
// rank is agreed before the next message, so every rank throws together.
#include <funcmesh/comm/distribute_slab.hpp>

#include <algorithm>
#include <string>

#include <funcmesh/comm/collective_error.hpp>
#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/distributed_graph.hpp>
#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/core/error.hpp>
#include <funcmesh/faces/detail/freed_memory.hpp>

#include <funcmesh/comm/detail/exchange.hpp>
#include <funcmesh/comm/detail/raw_vector.hpp>
#include "setup/migrate.hpp"
#include "setup/parallel_hilbert.hpp"
#include "setup/region_mesh.hpp"
#include "setup/slab_links.hpp"

namespace funcmesh {

namespace {

using namespace setup_detail;

struct ranks_of {
  int rank = 0;
  int size = 1;
  explicit ranks_of(MPI_Comm comm) {
    check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank", comm);
    check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size", comm);
  }
};

void agree(MPI_Comm comm, const std::string& failure) {
  mpi::agree(mpi::communicator(comm), failure);
}

// Checks that need no messages beyond one agreement: the slab's own consistency and
// that there are at least as many cells as ranks.
std::string check_slab(const mesh_slab& slab, int ranks, int rank) {
  const std::string where =
      (slab.source.empty() ? std::string() : slab.source + ": ") + "funcmesh::distribute_slab: ";
  if (slab.global_cells < ranks) {
    return where + "cannot split " + std::to_string(slab.global_cells) + " cells into " +
           std::to_string(ranks) + " parts (one per rank)";
  }
  if (slab.first_cell != share_begin(slab.global_cells, ranks, rank) ||
      slab.first_cell + slab.cells.size() != share_begin(slab.global_cells, ranks, rank + 1) ||
      slab.first_node != share_begin(slab.global_nodes, ranks, rank) ||
      slab.first_node + static_cast<index_t>(slab.coordinates.size()) !=
          share_begin(slab.global_nodes, ranks, rank + 1) ||
      slab.first_boundary != share_begin(slab.global_boundary, ranks, rank) ||
      slab.first_boundary + slab.boundary.size() !=
          share_begin(slab.global_boundary, ranks, rank + 1)) {
    return where + "this rank's slab is not its even share (share_begin) of the rows";
  }
  for (const element_block* block : {&slab.cells, &slab.boundary}) {
    for (index_t node : block->nodes) {
      if (node < 0 || node >= slab.global_nodes) {
        return where + "an element references node " + std::to_string(node) +
               ", outside the mesh's " + std::to_string(slab.global_nodes) + " nodes";
      }
    }
  }
  return {};
}

// The links' arrays lent to a distributed_graph for the partitioner (moved, not copied:
// the partitioner's own copy is the set-up's peak), and given back after.
class lent_graph {
 public:
  lent_graph(const mesh_slab& slab, slab_links& links) : links_(links) {
    graph_.first_vertex = slab.first_cell;
    graph_.global_vertices = slab.global_cells;
    graph_.offsets = std::move(links.offsets);
    graph_.adjacency = std::move(links.neighbours);
  }
  lent_graph(const lent_graph&) = delete;
  lent_graph& operator=(const lent_graph&) = delete;
  ~lent_graph() {
    links_.offsets = std::move(graph_.offsets);
    links_.neighbours = std::move(graph_.adjacency);
  }
  const distributed_graph& get() const { return graph_; }

 private:
  slab_links& links_;
  distributed_graph graph_;
};

std::vector<int> partition_slab(MPI_Comm comm, const mesh_slab& slab, slab_links& links,
                                partitioner which, const partition_options& options, int ranks) {
  if (which == partitioner::metis) {
    throw error(
        "funcmesh::distribute_slab: the metis partitioner needs the whole mesh on rank 0 "
        "(a .msh file); in parallel, choose ptscotch, parmetis or hilbert");
  }
  if (ranks == 1) return std::vector<int>(static_cast<std::size_t>(slab.cells.size()), 0);
  if (which == partitioner::automatic) {
    which = have_ptscotch() ? partitioner::ptscotch : partitioner::hilbert;
  }
  switch (which) {
    case partitioner::hilbert:
      return hilbert_parts(comm, slab, ranks);
    case partitioner::ptscotch:
      return partition_ptscotch(comm, lent_graph(slab, links).get(), ranks, options);
    case partitioner::parmetis:
      return partition_parmetis(comm, lent_graph(slab, links).get(), ranks, options);
    default:
      break;
  }
  throw error("funcmesh::distribute_slab: unknown partitioner " +
              std::to_string(static_cast<int>(which)));
}

distributed_layout finish(MPI_Comm comm, const mesh_slab& slab, slab_links& links,
                          std::span<const int> part, const halo_options& halo,
                          setup_report& report) {
  const ranks_of r(comm);
  double start = MPI_Wtime();
  std::string failure;
  for (int p : part) {
    if (p < 0 || p >= r.size) {
      failure = "funcmesh::distribute_slab: a cell is assigned to part " + std::to_string(p) +
                ", outside [0, " + std::to_string(r.size) + ")";
      break;
    }
  }
  agree(comm, failure);
  region cells = migrate(comm, slab, links, part, halo.depth);
  agree(comm, cells.owned.count() == 0 ? "funcmesh::distribute_slab: the partition left part " +
                                             std::to_string(r.rank) + " empty; ask for fewer ranks"
                                       : std::string());
  report.migrate = MPI_Wtime() - start;
  start = MPI_Wtime();
  local_mesh local;
  try {
    local = region_local_mesh(comm, slab, cells, r.size, r.rank, halo);
  } catch (const std::exception& e) {
    failure = e.what();
  }
  cells = region{};
  detail::return_freed_memory();
  agree(comm, failure);
  distributed_layout layout(comm, std::move(local), slab.global_cells, slab.global_nodes, halo);
  report.build = MPI_Wtime() - start;
  return layout;
}

}  // namespace

distributed_layout distribute_slab(MPI_Comm comm, const mesh_slab& slab, partitioner which,
                                   const partition_options& partitioning, const halo_options& halo,
                                   setup_report* report) {
  const ranks_of r(comm);
  setup_report times;
  double start = MPI_Wtime();
  agree(comm, check_slab(slab, r.size, r.rank));
  slab_links links = link_slab(comm, slab, halo.by);
  times.link = MPI_Wtime() - start;
  start = MPI_Wtime();
  std::vector<int> part;
  std::string failure;
  try {
    part = partition_slab(comm, slab, links, which, partitioning, r.size);
  } catch (const mpi::collective_error&) {
    throw;  // already alike on every rank
  } catch (const std::exception& e) {
    failure = e.what();
  }
  agree(comm, failure);
  times.partition = MPI_Wtime() - start;
  distributed_layout layout = finish(comm, slab, links, part, halo, times);
  if (report != nullptr) *report = times;
  return layout;
}

distributed_layout distribute_slab(MPI_Comm comm, const mesh_slab& slab, std::span<const int> part,
                                   const halo_options& halo, setup_report* report) {
  const ranks_of r(comm);
  setup_report times;
  const double start = MPI_Wtime();
  std::string failure = check_slab(slab, r.size, r.rank);
  if (failure.empty() && static_cast<index_t>(part.size()) != slab.cells.size()) {
    failure = "funcmesh::distribute_slab: " + std::to_string(part.size()) + " parts given for " +
              std::to_string(slab.cells.size()) + " slab cells";
  }
  agree(comm, failure);
  slab_links links = link_slab(comm, slab, halo.by);
  times.link = MPI_Wtime() - start;
  distributed_layout layout = finish(comm, slab, links, part, halo, times);
  if (report != nullptr) *report = times;
  return layout;
}

namespace detail {
std::size_t set_exchange_round_limit(std::size_t bytes) {
  return setup_detail::exchange_round_limit(bytes);
}
std::size_t set_large_page_threshold(std::size_t bytes) {
  return setup_detail::set_large_page_threshold(bytes);
}
std::size_t large_page_allocations() { return setup_detail::large_page_allocations(); }
}  // namespace detail

}  // namespace funcmesh
