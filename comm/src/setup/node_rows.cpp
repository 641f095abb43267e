// Requests go out in ascending id order, so each owner's answers come back as one run in
// the order asked, and the runs by source rank are the answer in the caller's order.
#include "node_rows.hpp"

#include <algorithm>

#include <funcmesh/comm/mpi_error.hpp>

#include <funcmesh/comm/detail/exchange.hpp>

namespace funcmesh::setup_detail {

std::vector<std::array<double, 3>> fetch_coordinates(MPI_Comm comm, const mesh_slab& slab,
                                                     std::span<const index_t> nodes) {
  int ranks = 1;
  check_mpi(MPI_Comm_size(comm, &ranks), "MPI_Comm_size", comm);
  outbox<index_t> asks(ranks);
  for (index_t node : nodes) asks.count(share_of(slab.global_nodes, ranks, node));
  asks.allocate();
  for (index_t node : nodes) asks.put(share_of(slab.global_nodes, ranks, node), node);
  const received<index_t> asked = asks.send(comm);
  std::vector<std::array<double, 3>> answers(asked.data.size());
  for (std::size_t k = 0; k < answers.size(); ++k) {
    answers[k] = slab.coordinates[static_cast<std::size_t>(asked.data[k] - slab.first_node)];
  }
  received<std::array<double, 3>> got = exchange<std::array<double, 3>>(
      comm, std::span<const std::array<double, 3>>(answers), asked.offsets);
  return {got.data.begin(), got.data.end()};
}

}  // namespace funcmesh::setup_detail
