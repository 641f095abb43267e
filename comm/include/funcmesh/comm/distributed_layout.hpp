// distributed_layout: everything one rank holds of a partition, in one shared, immutable
// object: its own communicator, the local mesh, global counts and boundary groups, the halo
// plan and the face set. distribute() makes one; distributed functions hold it.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <funcmesh/comm/halo_plan.hpp>
#include <funcmesh/expr/grid_function.hpp>
#include <funcmesh/faces/face_set.hpp>
#include <funcmesh/partition/local_mesh.hpp>

namespace funcmesh {

class distributed_layout;
namespace detail {
struct layout_state;
// Room for one value of `value_bytes` per face of the layout's face set, kept for the next
// call (gather_faces' face fluxes): a time loop allocates it once. For one loop at a time
// (the face loops are called from one thread).
buffer face_flux_scratch(const distributed_layout& layout, std::size_t value_bytes);
// For static_asserts in the forms that took a raw communicator before layouts.
template <class>
inline constexpr bool always_false_v = false;
}  // namespace detail

// A handle: copies share one layout (compare them with ==). Every rank of the layout's
// communicator holds its own part of the same layout; collective operations on it (an
// exchange, a global reduction, the first faces()) must be called on every rank, in the
// same order: the SPMD contract (docs/distributed.md). Collective members say so:
// construction, prepare_faces (and, on a layout never prepared, the first faces() /
// volume() / centroid() / cell_size(), which prepare it).
class distributed_layout {
 public:
  // The layout of `local` on `comm`, for distribute(); collective over `comm`: it
  // duplicates the communicator and builds the halo plan (agreeing first that every rank's
  // lists are sound, so an error on one rank throws on all).
  distributed_layout(MPI_Comm comm, local_mesh local, index_t global_cells, index_t global_nodes,
                     halo_options halo);

  // The layout's own duplicate of the communicator it was distributed over (its messages
  // never meet the caller's; it lives as long as the layout).
  MPI_Comm comm() const;
  int rank() const;
  int size() const;
  // This rank's part of the mesh: owned cells, then halo cells, with their nodes.
  const local_mesh& mesh() const;
  [[deprecated(
      "write layout.mesh() (the name local() was shared with a function's "
      "values)")]] const local_mesh&
  local() const {
    return mesh();
  }
  // Cells of this rank: owned [0, owned_count()), of which [0, interior_count()) have no
  // halo neighbour, then halo cells up to total_count().
  index_t owned_count() const;
  index_t interior_count() const;
  index_t total_count() const;
  index_t global_cells() const;
  index_t global_nodes() const;
  int halo_depth() const;
  // The names of the global mesh's boundary groups (physical groups of dimension - 1),
  // alike on every rank: a name can be checked without messages.
  const std::vector<std::string>& boundary_groups() const;
  bool has_boundary_group(const std::string& name) const;
  // Checks up front, before any set-up or output, that the mesh has every boundary group
  // the solver will name in on("name", ...): throws agreed_error naming the missing ones
  // and those the mesh has. A local check (every rank holds the same list), so every rank
  // throws alike with no message sent; app::run prints it once.
  void require_groups(std::initializer_list<std::string_view> names) const;
  void require_groups(const std::vector<std::string>& names) const;

  // The exchange of this layout's halo, shared by every distributed function on it.
  halo_plan& exchange_plan() const;
  [[deprecated(
      "write layout.exchange_plan() (u.halo_status() is a function's halo state)")]] halo_plan&
  halo() const {
    return exchange_plan();
  }
  // Collective: builds the face loops' faces storing the geometry `stored` asks for
  // (face_geometry::minimal() for Airfoil-like fluxes, to save memory), every rank agreeing
  // that its part's domain boundary is tagged, and with them the cell geometry they store
  // (volume() and cell_size() with cell_volume, centroid() with cell_centroid: 1 + 1 + 3
  // doubles per local cell). Call it on every rank, once, before the first face loop or
  // geometry read (programs on app::load do it after loading); afterwards faces(),
  // volume(), centroid() and cell_size() send no message. A later call returns the same
  // set, with no message, and throws if it lacks something `stored` asks for (every rank
  // alike): prepare with everything the solver reads.
  const face_set& prepare_faces(const face_geometry& stored = {}) const;
  // Whether prepare_faces (or a first faces()) has run: then faces() sends no message.
  bool faces_prepared() const;
  // The prepared faces. On a layout whose faces were not prepared it prepares them with
  // all the optional geometry, which is collective: programs written before prepare_faces
  // keep working, provided every rank makes the same first call.
  const face_set& faces() const;
  [[deprecated(
      "call layout.prepare_faces(stored) (collective, once, before the first face "
      "loop), then layout.faces()")]] const face_set&
  faces(const face_geometry& stored) const;
  // The cells' geometry as grid functions (owned and halo) for expressions: each cell's
  // volume (area in 2-D: rhs / volume()), centroid (u = fmap(initial, centroid())) and
  // size, 2 * dimension * volume / surface (the edge of a square or cube, the diameter of
  // a triangle's inscribed circle: the length of a CFL condition). Built by prepare_faces;
  // on a layout not prepared, the first of them prepares it as faces() does (collective).
  // They throw if the faces were prepared without what they need (face_geometry::
  // cell_volume for volume() and cell_size(), cell_centroid for centroid()). The same bits
  // on every rank count.
  const grid_function<double>& volume() const;
  const grid_function<vec<double, 3>>& centroid() const;
  const grid_function<double>& cell_size() const;

  // This layout's number among those made in this process (1, 2, ...): alike on every
  // rank, since every rank makes its layouts in the same order. For messages.
  std::uint64_t id() const;
  // "layout #1 (4096 cells on 2 ranks)".
  std::string describe() const;

  friend bool operator==(const distributed_layout& a, const distributed_layout& b) {
    return a.state_ == b.state_;
  }

 private:
  friend buffer detail::face_flux_scratch(const distributed_layout&, std::size_t);
  const face_set& built_faces(const face_geometry& stored) const;

  std::shared_ptr<detail::layout_state> state_;
};

}  // namespace funcmesh
