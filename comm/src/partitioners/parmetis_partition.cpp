// partition_parmetis with ParMETIS_V3_PartKway (built where FindParMETIS found it: Spack's
// funcmesh+parmetis, not Debian, which has no ParMETIS). The graph is checked and agreed
// first: ParMETIS validates little, and aborts the job on some errors.
#include <limits>
#include <string>
#include <vector>

#include <mpi.h>
#include <parmetis.h>

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/distributed_graph.hpp>

#include "graph_checks.hpp"

namespace funcmesh {

namespace {

constexpr const char* caller = "funcmesh::partition_parmetis";

// The checked values, now known to fit, in ParMETIS's index type (idx_t: 32 or 64 bits,
// as METIS was built). Never empty: ParMETIS reads a null pointer as "absent".
std::vector<idx_t> as_idx(const std::vector<index_t>& values) {
  std::vector<idx_t> out(values.size() + 1, 0);
  for (std::size_t k = 0; k < values.size(); ++k) out[k] = static_cast<idx_t>(values[k]);
  return out;
}

}  // namespace

bool have_parmetis() { return true; }

std::vector<int> partition_parmetis(MPI_Comm comm, const distributed_graph& graph, int parts,
                                    const partition_options& options) {
  const mpi::communicator world(comm);
  const detail::distributed_graph_shape shape = detail::check_distributed_graph(
      world, graph, parts, options, static_cast<index_t>(std::numeric_limits<idx_t>::max()),
      caller);
  const index_t n = graph.vertex_count();
  // ParMETIS 4 fails (or aborts) when a rank holds no vertex.
  mpi::agree(world, n > 0 ? std::string()
                          : std::string(caller) +
                                ": ParMETIS needs at least one vertex on "
                                "every rank; this rank holds none");
  if (parts == 1) return std::vector<int>(static_cast<std::size_t>(n), 0);

  std::vector<idx_t> vtxdist = as_idx(shape.vertex_begin);
  std::vector<idx_t> xadj = as_idx(graph.offsets);
  std::vector<idx_t> adjncy = as_idx(graph.adjacency);
  std::vector<idx_t> vwgt = as_idx(options.cell_weights);
  idx_t wgtflag = shape.weighted ? 2 : 0;  // 2: vertex weights only
  idx_t numflag = 0;                       // C numbering
  idx_t ncon = 1;
  idx_t nparts = parts;
  std::vector<real_t> tpwgts(static_cast<std::size_t>(parts), real_t(1) / real_t(parts));
  real_t ubvec = static_cast<real_t>(options.imbalance);
  // options[0] = 1: [1] is the debug level (none), [2] the seed; 0: ParMETIS's defaults
  // (its fixed default seed).
  idx_t parmetis_options[3] = {options.seed >= 0 ? 1 : 0, 0, options.seed >= 0 ? options.seed : 0};
  idx_t edgecut = 0;
  std::vector<idx_t> part(static_cast<std::size_t>(n) + 1, -1);
  MPI_Comm own = comm;  // ParMETIS duplicates it for its own messages
  const int status = ParMETIS_V3_PartKway(vtxdist.data(), xadj.data(), adjncy.data(),
                                          shape.weighted ? vwgt.data() : nullptr, nullptr, &wgtflag,
                                          &numflag, &ncon, &nparts, tpwgts.data(), &ubvec,
                                          parmetis_options, &edgecut, part.data(), &own);
  mpi::agree(world, status == METIS_OK
                        ? std::string()
                        : std::string(caller) + ": ParMETIS_V3_PartKway failed (status " +
                              std::to_string(status) + ")");
  return detail::checked_parts(world, part, n, parts, caller);
}

}  // namespace funcmesh
