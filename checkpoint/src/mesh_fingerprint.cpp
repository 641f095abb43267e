// The mesh fingerprint: a sum over owned cells of a per-cell hash, so that it does not
// depend on how the cells are split over ranks.
#include <funcmesh/checkpoint/mesh_fingerprint.hpp>

#include <mpi.h>

#include <funcmesh/comm/mpi_error.hpp>

namespace funcmesh {

namespace {
// splitmix64's finalizer: every input bit moves every output bit.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
}  // namespace

std::uint64_t mesh_fingerprint(const distributed_layout& layout) {
  const local_mesh& m = layout.local();
  std::uint64_t sum = 0;
  for (index_t c = 0; c < layout.owned_count(); ++c) {
    std::uint64_t h = mix(static_cast<std::uint64_t>(m.global_cell[static_cast<std::size_t>(c)]));
    h = mix(h ^ static_cast<std::uint64_t>(m.cells.cells.types[static_cast<std::size_t>(c)]));
    for (const index_t node : m.cells.cells.nodes_of(c)) {
      h = mix(h ^ static_cast<std::uint64_t>(m.global_node[static_cast<std::size_t>(node)]));
    }
    sum += h;
  }
  std::uint64_t total = 0;
  check_mpi(MPI_Allreduce(&sum, &total, 1, MPI_UINT64_T, MPI_SUM, layout.comm()),
            "MPI_Allreduce (mesh fingerprint)", layout.comm());
  return mix(mix(total ^ static_cast<std::uint64_t>(layout.global_cells())) ^
             static_cast<std::uint64_t>(layout.global_nodes()));
}

}  // namespace funcmesh
