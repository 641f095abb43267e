// Distribution of local meshes: partition on rank 0 and send each rank its bytes (chunked
// below 2^31 per message), or let every rank generate and keep its own part. Failures on
// any rank become the same exception on every rank, so no rank waits forever.
#include <funcmesh/comm/distribute.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/core/error.hpp>
#include <funcmesh/faces/detail/freed_memory.hpp>
#include <funcmesh/partition/dual_graph.hpp>

namespace funcmesh {

namespace {

constexpr int mesh_tag = 7301;
// Below INT_MAX, the widest count one MPI call takes.
constexpr std::size_t chunk_bytes = std::size_t{1} << 30;

// Every rank passes its failure ("" when fine); all throw the lowest failing rank's.
void agree_or_throw(MPI_Comm comm, const std::string& failure) {
  mpi::agree(mpi::communicator(comm), failure);
}

void send_bytes(MPI_Comm comm, int to, const std::vector<std::byte>& bytes) {
  const unsigned long long total = bytes.size();
  check_mpi(MPI_Send(&total, 1, MPI_UNSIGNED_LONG_LONG, to, mesh_tag, comm), "MPI_Send", comm);
  for (std::size_t at = 0; at < bytes.size(); at += chunk_bytes) {
    const std::size_t count = std::min(chunk_bytes, bytes.size() - at);
    check_mpi(MPI_Send(bytes.data() + at, static_cast<int>(count), MPI_BYTE, to, mesh_tag, comm),
              "MPI_Send", comm);
  }
}

std::vector<std::byte> receive_bytes(MPI_Comm comm, int from) {
  unsigned long long total = 0;
  check_mpi(MPI_Recv(&total, 1, MPI_UNSIGNED_LONG_LONG, from, mesh_tag, comm, MPI_STATUS_IGNORE),
            "MPI_Recv", comm);
  std::vector<std::byte> bytes(static_cast<std::size_t>(total));
  for (std::size_t at = 0; at < bytes.size(); at += chunk_bytes) {
    const std::size_t count = std::min(chunk_bytes, bytes.size() - at);
    check_mpi(MPI_Recv(bytes.data() + at, static_cast<int>(count), MPI_BYTE, from, mesh_tag, comm,
                       MPI_STATUS_IGNORE),
              "MPI_Recv", comm);
  }
  return bytes;
}

std::vector<int> partition_for(const mesh& global, const graph& dual, int parts,
                               const partition_options& partitioning) {
  if (partitioning.method == partition_method::geometric ||
      partitioning.method == partition_method::hilbert) {
    return partition_mesh(global, parts, partitioning);
  }
  return partition_graph(dual, parts, partitioning);
}

struct rank_and_size {
  int rank = 0;
  int size = 1;
};

rank_and_size start(MPI_Comm comm) {
  rank_and_size result;
  check_mpi(MPI_Comm_rank(comm, &result.rank), "MPI_Comm_rank", comm);
  check_mpi(MPI_Comm_size(comm, &result.size), "MPI_Comm_size", comm);
  return result;
}

}  // namespace

distributed_layout distribute(MPI_Comm comm, const mesh& global,
                              const partition_options& partitioning, const halo_options& halo) {
  const rank_and_size result = start(comm);
  local_mesh local;
  std::vector<local_mesh> locals;
  // Serialized before the first send, so that a failure (memory) happens while every rank
  // still waits in the agreement below, not halfway through the messages.
  std::vector<std::vector<std::byte>> outgoing;
  std::string failure;
  long long counts[2] = {0, 0};
  if (result.rank == 0) {
    try {
      const graph dual = dual_graph(global, halo.by);
      const std::vector<int> part = partition_for(global, dual, result.size, partitioning);
      locals = build_local_meshes(global, dual, part, result.size, halo);
      for (int to = 1; to < result.size; ++to) {
        outgoing.push_back(detail::serialize(locals[static_cast<std::size_t>(to)]));
      }
      counts[0] = global.cell_count();
      counts[1] = global.node_count();
    } catch (const std::exception& e) {
      failure = e.what();
    }
  }
  agree_or_throw(comm, failure);
  check_mpi(MPI_Bcast(counts, 2, MPI_LONG_LONG, 0, comm), "MPI_Bcast", comm);
  if (result.rank == 0) {
    for (int to = 1; to < result.size; ++to) {
      send_bytes(comm, to, outgoing[static_cast<std::size_t>(to - 1)]);
      outgoing[static_cast<std::size_t>(to - 1)] = {};
    }
    local = std::move(locals[0]);
    std::vector<local_mesh>().swap(locals);  // the other parts: sent
    detail::return_freed_memory();
  } else {
    try {
      local = detail::deserialize(receive_bytes(comm, 0));
    } catch (const std::exception& e) {
      // agree() names this rank first; a prefix from deserialize would repeat it mid-line.
      std::string what = e.what();
      if (const std::string mine = mpi::rank_prefix(); what.starts_with(mine)) {
        what.erase(0, mine.size());
      }
      failure = "the local mesh received from rank 0: " + what;
    }
  }
  // A corrupt message on one rank fails every rank, not that one alone.
  agree_or_throw(comm, failure);
  return distributed_layout(comm, std::move(local), counts[0], counts[1], halo);
}

distributed_layout distribute_generated(MPI_Comm comm, const std::function<mesh()>& generate,
                                        const partition_options& partitioning,
                                        const halo_options& halo) {
  const rank_and_size result = start(comm);
  std::string failure;
  local_mesh local;
  index_t global_cells = 0, global_nodes = 0;
  try {
    const mesh global = generate();
    const graph dual = dual_graph(global, halo.by);
    const std::vector<int> part = partition_for(global, dual, result.size, partitioning);
    local = build_local_mesh(global, dual, part, result.size, result.rank, halo);
    global_cells = global.cell_count();
    global_nodes = global.node_count();
  } catch (const std::exception& e) {
    failure = e.what();
  }
  detail::return_freed_memory();  // the global mesh, its dual graph and partition
  agree_or_throw(comm, failure);
  return distributed_layout(comm, std::move(local), global_cells, global_nodes, halo);
}

}  // namespace funcmesh
