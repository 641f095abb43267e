// The mesh fingerprint: a sum over cells of a per-cell hash, so that it does not depend on
// how the cells are split over ranks (owned cells of a layout, or the rows of slabs).
#include <funcmesh/checkpoint/mesh_fingerprint.hpp>

#include <span>

#include <funcmesh/comm/mpi_error.hpp>

#include "fingerprint_parts.hpp"

namespace funcmesh {

namespace {

// splitmix64's finalizer: every input bit moves every output bit.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// One cell's hash; global_node maps the cell's node entries to global ids.
template <class GlobalNode>
std::uint64_t cell_hash(index_t gid, cell_type type, std::span<const index_t> nodes,
                        GlobalNode&& global_node) {
  std::uint64_t h = mix(static_cast<std::uint64_t>(gid));
  h = mix(h ^ static_cast<std::uint64_t>(type));
  for (const index_t node : nodes) h = mix(h ^ static_cast<std::uint64_t>(global_node(node)));
  return h;
}

std::uint64_t total(MPI_Comm comm, std::uint64_t sum, index_t global_cells, index_t global_nodes) {
  std::uint64_t all = 0;
  check_mpi(MPI_Allreduce(&sum, &all, 1, MPI_UINT64_T, MPI_SUM, comm),
            "MPI_Allreduce (mesh fingerprint)", comm);
  return mix(mix(all ^ static_cast<std::uint64_t>(global_cells)) ^
             static_cast<std::uint64_t>(global_nodes));
}

}  // namespace

namespace detail {

std::uint64_t local_fingerprint_sum(const distributed_layout& layout) {
  const local_mesh& m = layout.mesh();
  std::uint64_t sum = 0;
  for (index_t c = 0; c < layout.owned_count(); ++c) {
    const auto k = static_cast<std::size_t>(c);
    sum += cell_hash(m.global_cell[k], m.cells.cells.types[k], m.cells.cells.nodes_of(c),
                     [&](index_t node) { return m.global_node[static_cast<std::size_t>(node)]; });
  }
  return sum;
}

std::uint64_t fingerprint_of_sum(const distributed_layout& layout, std::uint64_t local_sum) {
  return total(layout.comm(), local_sum, layout.global_cells(), layout.global_nodes());
}

}  // namespace detail

std::uint64_t mesh_fingerprint(const distributed_layout& layout) {
  return detail::fingerprint_of_sum(layout, detail::local_fingerprint_sum(layout));
}

std::uint64_t mesh_fingerprint(MPI_Comm comm, const mesh_slab& slab) {
  std::uint64_t sum = 0;
  for (index_t c = 0; c < slab.cells.size(); ++c) {
    sum += cell_hash(slab.first_cell + c, slab.cells.types[static_cast<std::size_t>(c)],
                     slab.cells.nodes_of(c), [](index_t node) { return node; });
  }
  return total(comm, sum, slab.global_cells, slab.global_nodes);
}

}  // namespace funcmesh
