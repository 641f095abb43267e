// partition_ptscotch with PT-Scotch (built where FindPTScotch found it): the graph is
// checked and agreed first, then handed to SCOTCH_dgraphPart on a duplicate of the
// caller's communicator, in a Scotch context of its own (one thread, deterministic).
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <mpi.h>
// ptscotch.h needs <cstdio>, <cstdint> (64-bit builds) and <mpi.h> first. Scotch 7's
// headers say extern "C" themselves; this one is for older headers that may not.
extern "C" {
#include <ptscotch.h>
}

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/distributed_graph.hpp>
#include <funcmesh/comm/mpi_error.hpp>

#include "graph_checks.hpp"

namespace funcmesh {

namespace {

constexpr const char* caller = "funcmesh::partition_ptscotch";

// Scotch's objects, released in reverse order of creation whatever happens in between.
// Each exit runs only after its init succeeded.
struct scotch_session {
  SCOTCH_Dgraph graph{};
  SCOTCH_Dgraph bound{};  // `graph` bound to `context`: what the partitioning runs on
  SCOTCH_Context context{};
  SCOTCH_Strat strategy{};
  bool graph_live = false, bound_live = false, context_live = false, strategy_live = false;

  scotch_session() = default;
  scotch_session(const scotch_session&) = delete;
  scotch_session& operator=(const scotch_session&) = delete;
  ~scotch_session() {
    if (strategy_live) SCOTCH_stratExit(&strategy);
    if (bound_live) SCOTCH_dgraphExit(&bound);  // the binding goes before the graph
    if (context_live) SCOTCH_contextExit(&context);
    if (graph_live) SCOTCH_dgraphExit(&graph);
  }
};

// Scotch returns non-zero on failure after printing the reason on stderr (libptscotcherr's
// SCOTCH_errorPrint, prefixed by the rank): name the call; every rank then throws alike.
void agree_on(const mpi::communicator& comm, int status, const char* call) {
  mpi::agree(comm, status == 0
                       ? std::string()
                       : std::string(caller) + ": " + call + " failed (status " +
                             std::to_string(status) + "; PT-Scotch printed its reason on stderr)");
}

// The checked values, now known to fit, in Scotch's index type.
std::vector<SCOTCH_Num> as_scotch(const std::vector<index_t>& values) {
  // Never empty: an empty vector's data() may be null, which Scotch reads as "absent".
  std::vector<SCOTCH_Num> out(values.size() + 1, 0);
  for (std::size_t k = 0; k < values.size(); ++k) out[k] = static_cast<SCOTCH_Num>(values[k]);
  return out;
}

// SCOTCH_dgraphCheck walks every edge and its reverse across the ranks: the debug builds
// (the asan preset among them) run it on top of graph_checks' own.
constexpr bool scotch_self_check =
#ifdef NDEBUG
    false;
#else
    true;
#endif

}  // namespace

bool have_ptscotch() { return true; }

std::vector<int> partition_ptscotch(MPI_Comm comm, const distributed_graph& graph, int parts,
                                    const partition_options& options) {
  const mpi::communicator world(comm);
  // The header's SCOTCH_Num must be the library's (Debian ships 32- and 64-bit builds).
  mpi::agree(world, SCOTCH_numSizeof() == static_cast<int>(sizeof(SCOTCH_Num))
                        ? std::string()
                        : std::string(caller) + ": ptscotch.h's SCOTCH_Num has " +
                              std::to_string(sizeof(SCOTCH_Num)) + " bytes, the library's " +
                              std::to_string(SCOTCH_numSizeof()) +
                              ": funcmesh was built against another Scotch's header");
  const detail::distributed_graph_shape shape = detail::check_distributed_graph(
      world, graph, parts, options, static_cast<index_t>(SCOTCH_NUMMAX), caller);
  const index_t n = graph.vertex_count();
  if (parts == 1) return std::vector<int>(static_cast<std::size_t>(n), 0);

  // Scotch keeps pointers to these arrays until SCOTCH_dgraphExit: they outlive `session`.
  std::vector<SCOTCH_Num> offsets = as_scotch(graph.offsets);
  std::vector<SCOTCH_Num> adjacency = as_scotch(graph.adjacency);
  std::vector<SCOTCH_Num> weights;
  // All ranks or none pass weights; a rank without vertices passes a dummy array.
  if (shape.weighted) weights = as_scotch(options.cell_weights);
  std::vector<SCOTCH_Num> part(static_cast<std::size_t>(n) + 1, -1);

  // Scotch's messages travel on a communicator of their own, not among the caller's.
  MPI_Comm own = MPI_COMM_NULL;
  check_mpi(MPI_Comm_dup(comm, &own), "MPI_Comm_dup (partition_ptscotch)", comm);
  const mpi::communicator scotch_comm = mpi::communicator::adopt(own);
  scotch_session s;  // released before scotch_comm (declared after it)

  const int init = SCOTCH_dgraphInit(&s.graph, own);
  s.graph_live = init == 0;
  agree_on(world, init, "SCOTCH_dgraphInit");
  const auto local_edges = static_cast<SCOTCH_Num>(graph.adjacency.size());
  agree_on(
      world,
      SCOTCH_dgraphBuild(&s.graph, 0, static_cast<SCOTCH_Num>(n), static_cast<SCOTCH_Num>(n),
                         offsets.data(), nullptr, shape.weighted ? weights.data() : nullptr,
                         nullptr, local_edges, local_edges, adjacency.data(), nullptr, nullptr),
      "SCOTCH_dgraphBuild");
  if (scotch_self_check) agree_on(world, SCOTCH_dgraphCheck(&s.graph), "SCOTCH_dgraphCheck");

  // A context of its own: one thread per rank (the ranks already share the cores; Scotch's
  // default is every core, whose threads would call MPI together), point-to-point messages
  // taken in a fixed order (SCOTCH_OPTIONNUMDETERMINISTIC), and a private random generator
  // seeded here, so that the same graph, seed and rank count give the same parts.
  const int context = SCOTCH_contextInit(&s.context);
  s.context_live = context == 0;
  agree_on(world, context, "SCOTCH_contextInit");
  // (7.0.3's SCOTCH_contextOptionSetNum switches on the value instead of the option; for
  // the value 1 it still sets the option asked for.)
  agree_on(world, SCOTCH_contextOptionSetNum(&s.context, SCOTCH_OPTIONNUMDETERMINISTIC, 1),
           "SCOTCH_contextOptionSetNum(DETERMINISTIC)");
  agree_on(world, SCOTCH_contextRandomClone(&s.context), "SCOTCH_contextRandomClone");
  // No seed: 1, Scotch's own fixed seed (Debian's build uses it too). Scotch ORs 1 into
  // the seed, so seeds 2k and 2k + 1 give the same parts.
  SCOTCH_contextRandomSeed(&s.context,
                           static_cast<SCOTCH_Num>(options.seed >= 0 ? options.seed : 1));
  agree_on(world, SCOTCH_contextThreadSpawn(&s.context, 1, nullptr), "SCOTCH_contextThreadSpawn");
  const int bind = SCOTCH_contextBindDgraph(&s.context, &s.graph, &s.bound);
  s.bound_live = bind == 0;
  agree_on(world, bind, "SCOTCH_contextBindDgraph");

  const int strategy = SCOTCH_stratInit(&s.strategy);
  s.strategy_live = strategy == 0;
  agree_on(world, strategy, "SCOTCH_stratInit");
  // QUALITY: a partition is computed once per run and used for every iteration after.
  agree_on(world,
           SCOTCH_stratDgraphMapBuild(&s.strategy, SCOTCH_STRATQUALITY,
                                      static_cast<SCOTCH_Num>(scotch_comm.size()),
                                      static_cast<SCOTCH_Num>(parts), options.imbalance - 1.0),
           "SCOTCH_stratDgraphMapBuild");
  agree_on(world, SCOTCH_dgraphPart(&s.bound, parts, &s.strategy, part.data()),
           "SCOTCH_dgraphPart");
  return detail::checked_parts(world, part, n, parts, caller);
}

}  // namespace funcmesh
