// Local meshes: the piece of a partitioned mesh one part (rank) works on — its owned cells,
// a halo of cells owned by others, local<->global maps, and per neighbour part the lists
// of cells to send and receive, in matching order on both sides. Pure functions, no MPI.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/partition/dual_graph.hpp>
#include <funcmesh/partition/mesh.hpp>

namespace funcmesh {

struct mesh_faces;

// The order of a part's owned cells within its interior and boundary groups.
enum class cell_order {
  // Neighbours close in memory (recursive coordinate bisection of the cell centres): the
  // same local mesh whatever order the input held the cells in. The default.
  locality,
  global,  // ascending global index (the input's order)
};

struct halo_options {
  int depth = 1;                   // halo = non-owned cells within `depth` graph steps
  adjacency by = adjacency::face;  // which cells count as neighbours
  cell_order order = cell_order::locality;
};

// What one part exchanges with one neighbour part. Both lists hold local cell indices.
struct neighbour_lists {
  int part = 0;
  // Owned cells the neighbour holds in its halo, ordered by global cell index.
  std::vector<index_t> send;
  // Halo cells owned by the neighbour, in the same order as the neighbour's send list
  // for us (by global cell index), so message k of one side is entry k of the other.
  std::vector<index_t> receive;
};

// How a face of a local mesh relates to the partition. Loops over owned cells skip halo.
enum class face_kind : std::uint8_t {
  interior,            // both cells owned
  partition_boundary,  // one cell owned, the other a halo cell
  domain_boundary,     // a face of an owned cell on the global mesh's boundary
  halo,                // touches only halo cells (including the halo's outer faces)
};

struct local_mesh {
  int part = 0;
  int parts = 1;
  // Local cells numbered [owned interior | owned boundary | halo grouped by owner part
  // ascending], so interior work can overlap communication. The owned groups are in
  // halo_options::order (locality by default), the halo by global index. Global ids
  // keep the input's numbering (outputs and checkpoints are keyed by them).
  // Nodes: those local cells use, by global index, without tags (cells.node_ids is empty:
  // global_node names them). Boundary: the global mesh's boundary elements that are faces
  // of local cells. Physical groups: the global mesh's.
  mesh cells;
  // Owned cells none of whose graph neighbours are halo cells: [0, interior_count).
  index_t interior_count = 0;
  // Owned cells: [0, owned_count); halo cells: [owned_count, cells.cell_count()).
  index_t owned_count = 0;
  std::vector<index_t> global_cell;  // local cell -> global cell
  std::vector<index_t> global_node;  // local node -> global node (ascending)
  // parts + 1 entries: halo cells owned by part q are [halo_owner_offsets[q],
  // halo_owner_offsets[q + 1]) (empty for q == part).
  std::vector<index_t> halo_owner_offsets;
  std::vector<neighbour_lists> neighbours;  // sorted by part
  // (A global cell's local index: local_cell_lookup, built on demand.)

  index_t halo_count() const { return cells.cell_count() - owned_count; }
};

// The local mesh of part `which`: part[c] in [0, parts) is the owner of global cell c.
// Throws funcmesh::error on invalid input (sizes, part ids, which, depth).
local_mesh build_local_mesh(const mesh& global, std::span<const int> part, int parts, int which,
                            const halo_options& options = {});
// The same with a precomputed dual graph, which must be dual_graph(global, options.by).
local_mesh build_local_mesh(const mesh& global, const graph& dual, std::span<const int> part,
                            int parts, int which, const halo_options& options = {});

// Every part's local mesh; the dual graph and the boundary lookup are built once.
std::vector<local_mesh> build_local_meshes(const mesh& global, std::span<const int> part, int parts,
                                           const halo_options& options = {});
std::vector<local_mesh> build_local_meshes(const mesh& global, const graph& dual,
                                           std::span<const int> part, int parts,
                                           const halo_options& options = {});

// One kind per face of `local_faces` (build_faces(m.cells)). A face with one cell is a
// true domain boundary when that cell is owned: with depth >= 1 every face neighbour of an
// owned cell is local, so only a halo cell's face can be the halo's cut-off outer edge.
std::vector<face_kind> classify_faces(const local_mesh& m, const mesh_faces& local_faces);

namespace detail {
// build_local_mesh for a mesh that holds exactly the part's region (its owned cells and
// their halo, as the parallel set-up gathers them), every boundary element a face of one
// of its cells: all of them are kept, in their order, without matching them to cells.
local_mesh build_local_mesh_of_region(const mesh& region, const graph& dual,
                                      std::span<const int> part, int parts, int which,
                                      const halo_options& options);
}  // namespace detail

}  // namespace funcmesh
