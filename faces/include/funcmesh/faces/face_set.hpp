// face_set: the faces of a local mesh as face loops need them — globally oriented, with
// rank-independent geometry, each owned cell's faces in a fixed global order (the gather
// form) and in face order with a block colouring (the scatter form) — in arrays any
// executor can read. No MPI.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/core/index.hpp>
#include <funcmesh/core/vec.hpp>
#include <funcmesh/expr/grid_function.hpp>
#include <funcmesh/expr/grid_function_base.hpp>
#include <funcmesh/expr/grid_read.hpp>
#include <funcmesh/memory/array.hpp>
#include <funcmesh/memory/buffer.hpp>
#include <funcmesh/memory/token.hpp>
#include <funcmesh/memory/view.hpp>
#include <funcmesh/partition/face_colouring.hpp>
#include <funcmesh/partition/local_mesh.hpp>

namespace funcmesh {

// What a flux function sees of a face, from the cell whose value comes first: the unit
// normal points out of that cell; distance is between the two cell centroids (cell
// centroid to face centroid on the domain boundary); centroid is the face's; physical is
// the boundary group's id on the domain boundary, else 0. For reconstruction (face_geometry::
// cell_offsets): self_offset is the face centroid minus the centroid of the cell whose value
// comes first, other_offset the same from the other cell (zero on the domain boundary: the
// outside state sits at the face), so step() = self_offset - other_offset is the step from this
// cell's centroid to the other's; seen from the other side the two swap, with the same
// bits. A flux that ignores a field does not load it (the loops store each field apart).
struct face_view {
  double area = 0;
  vec<double, 3> normal{{0, 0, 0}};
  double distance = 0;
  int physical = 0;
  vec<double, 3> centroid{{0, 0, 0}};
  vec<double, 3> self_offset{{0, 0, 0}};
  vec<double, 3> other_offset{{0, 0, 0}};

  // The steps least squares fits along (face_set::least_squares_inverse and fv's gradients
  // share them): to the other cell's centroid (to the face centroid on the domain boundary),
  // and to the cell centroid's mirror image across the face's plane (a ghost cell's centroid).
  FUNCMESH_DEVICE vec<double, 3> step() const { return self_offset - other_offset; }
  FUNCMESH_DEVICE vec<double, 3> mirror_step() const {
    double normal_part = 0;
    for (int k = 0; k < 3; ++k) normal_part += self_offset[k] * normal[k];
    return (2 * normal_part) * normal;
  }
};

namespace detail {
// Three components stored apart (x, y, z arrays): a loop that reads only some of them
// (a 2-D flux never reads z) loads only those. A z column that would hold only zeros (a
// 2-D mesh in the plane z = 0) is not stored: z reads as 0.
struct vec3_view {
  view<const double> x, y, z;
  FUNCMESH_DEVICE vec<double, 3> operator[](index_t i) const {
    return {{x[i], y[i], z.size() > 0 ? z[i] : 0.0}};
  }
};
// What a face set builds on first use (least squares' matrices).
struct face_set_lazy;
std::shared_ptr<face_set_lazy> make_face_set_lazy();
struct vec3_arrays {
  array<double> x, y, z;
  vec3_view bind_to(memory_space space, token& holder) const {
    return {x.read_view(space, holder), y.read_view(space, holder), z.read_view(space, holder)};
  }
};
}  // namespace detail

// The geometry a face set stores beyond what every face loop reads (cells, area, normal,
// physical): a solver that never reads a face's distance or centroid, or the cells'
// centroids or volumes, saves their memory (about 24 of the ~90 bytes per face of a 2-D
// set, and 32 bytes per cell). What is not stored reads as NaN in face_view
// (face_set_view::face), so a flux that uses it anyway gives NaN results, never stale
// numbers; face_set::cell_centroids() and face_set::cell_volumes() are then empty.
struct face_geometry {
  bool distance = true;       // face_view::distance
  bool face_centroid = true;  // face_view::centroid
  bool cell_centroid = true;  // face_set::cell_centroids() (and distributed_layout::centroid())
  bool cell_volume = true;  // face_set::cell_volumes() (distributed_layout::volume(), cell_size())
  // face_view::self_offset and other_offset (the cells' centroids kept where kernels read
  // them, 24 bytes per cell; needs face_centroid): what reconstruction and least-squares
  // gradients read.
  bool cell_offsets = true;
  // Only what every face loop reads (Airfoil's fluxes need no more).
  static constexpr face_geometry minimal() { return {false, false, false, false, false}; }
  // Whether this stores everything `wanted` asks for.
  constexpr bool covers(const face_geometry& wanted) const {
    return (distance || !wanted.distance) && (face_centroid || !wanted.face_centroid) &&
           (cell_centroid || !wanted.cell_centroid) && (cell_volume || !wanted.cell_volume) &&
           (cell_offsets || !wanted.cell_offsets);
  }
};

// The face set's local indices (cells, faces, gather entries) are 32-bit: half the index
// traffic of the loops. A part with 2^31 or more faces is refused with a clear error.
using face_index = std::int32_t;

// What a kernel sees of a face_set: views only, trivially copyable. Geometry is stored
// once per face, field by field (structure of arrays), so that a loop loads only the
// fields its flux uses (about 16 bytes a face for Airfoil's fluxes) and no face is stored
// twice.
struct face_set_view {
  // (entry, face and their parts are forced inline: GCC left entry() out of line in the fv
  // module's loops, a call per face that cost them 20-30%.)
  // Gather form: cell c's faces (owned cells, then halo cells: a cell-local sum over owned
  // and halo cells reads the latter) are entries [offsets[c], offsets[c + 1]); other =
  // the neighbour's local index, or -1 - physical id on the domain boundary (-1 for a halo
  // cell's outer face, whose other cell this part does not hold); entry_face =
  // the face, f when c is its first cell, -1 - f when c is its second (the geometry is
  // then seen from c: the normal negated).
  view<const face_index> offsets;
  view<const face_index> other;
  view<const face_index> entry_face;
  // Per face f, in face order (which follows the cells, so consecutive faces touch nearby
  // cells; the faces of halo cells alone follow, past face_set::size()): its two local
  // cells and its geometry, oriented out of cells[f][0]. On the
  // domain boundary cells[f][1] is -1 - physical id (negative: no second cell), so the
  // boundary tags need no array of their own, as `other` holds them for the gather form. The
  // scatter form's block b is faces [block_offsets[b], block_offsets[b + 1]); blocks lists them by
  // colour (face_set::blocks.colour_offsets).
  view<const vec<face_index, 2>> face_cells;
  view<const double> area;
  detail::vec3_view normal;
  view<const double> distance;
  detail::vec3_view centroid;
  view<const index_t> block_offsets;
  view<const index_t> blocks;
  // Every local cell's centroid (owned, then halo), where face_geometry::cell_offsets is
  // stored (else empty): the offsets in face_view.
  detail::vec3_view cell_centroid;

  FUNCMESH_INLINE FUNCMESH_DEVICE face_view face(index_t f) const {
    face_view v = geometry(f);
    const vec<face_index, 2> two = face_cells[f];
    v.physical = physical_of(two[1]);
    add_offsets(v, two[0], two[1]);
    return v;
  }
  FUNCMESH_INLINE FUNCMESH_DEVICE face_view entry(index_t k) const {
    const face_index e = entry_face[k];
    return entry(k, face_cells[face_of(e)][e >= 0 ? 0 : 1]);
  }
  // Entry k of cell `self` (entries [offsets[self], offsets[self + 1])): the gather loops
  // know the cell, so its centroid is loaded once per cell, not looked up per face.
  FUNCMESH_INLINE FUNCMESH_DEVICE face_view entry(index_t k, index_t self) const {
    const face_index e = entry_face[k];
    face_view v = geometry(face_of(e));
    const face_index neighbour = other[k];
    v.physical = physical_of(neighbour);
    const double sign = orientation(e);
    for (int d = 0; d < 3; ++d) v.normal[d] = sign * v.normal[d];
    // A flux that reads no offset loads none of this (the loads are dead code).
    add_offsets(v, self, neighbour);
    return v;
  }
  // The offsets from the two cells' centroids to the face's (NaN where not stored; the
  // other one is zero on the domain boundary and on a halo cell's outer face).
  FUNCMESH_INLINE FUNCMESH_DEVICE void add_offsets(face_view& v, index_t self,
                                                   index_t neighbour) const {
    if (cell_centroid.x.size() == 0) {  // stored only with the face centroids
      constexpr double absent = std::numeric_limits<double>::quiet_NaN();
      v.self_offset = v.other_offset = vec<double, 3>{{absent, absent, absent}};
      return;
    }
    v.self_offset = v.centroid - cell_centroid[self];
    v.other_offset =
        neighbour >= 0 ? v.centroid - cell_centroid[neighbour] : vec<double, 3>{{0.0, 0.0, 0.0}};
  }
  // The boundary group's id from a second cell or an entry's other cell (-1 - id on the
  // domain boundary), 0 between two cells.
  FUNCMESH_DEVICE static int physical_of(face_index second) {
    return second < 0 ? static_cast<int>(-1 - second) : 0;
  }
  // Face f's geometry, without its physical id.
  FUNCMESH_INLINE FUNCMESH_DEVICE face_view geometry(index_t f) const {
    face_view v;
    v.area = area[f];
    v.normal = normal[f];
    constexpr double absent = std::numeric_limits<double>::quiet_NaN();
    v.distance = distance.size() > 0 ? distance[f] : absent;
    v.centroid = centroid.x.size() > 0 ? centroid[f] : vec<double, 3>{{absent, absent, absent}};
    return v;
  }
  // An entry's face and orientation, computed without branches: the orientation depends on
  // global ids, which a file may number in any order, and a branch on it then mispredicts.
  // ~e is -1 - e; times -1 is exactly the negation (a stored reversed normal's bits).
  FUNCMESH_DEVICE static index_t face_of(face_index e) { return e ^ (e >> 31); }
  FUNCMESH_DEVICE static double orientation(face_index e) {
    return static_cast<double>((e >> 31) | 1);
  }
  // sum + value where the cell is entry e's first cell, sum - value where it is the second:
  // branch-free where T can be scaled (times -1 is exactly the negation, so the bits are
  // those of sum - value).
  template <class T>
  FUNCMESH_INLINE FUNCMESH_DEVICE static T add_oriented(const T& sum, face_index e,
                                                        const T& value) {
    if constexpr (requires { double{} * value; }) {
      return sum + orientation(e) * value;
    } else {
      return e >= 0 ? sum + value : sum - value;
    }
  }
};

// The faces of a local mesh that touch an owned cell, oriented globally: cells(f)[0] has
// the lower global cell id (the owned cell on the domain boundary), the normal points out
// of it, and the geometry is computed from the face's nodes in one canonical sequence
// (from the lowest global node id), so every rank computes every face bit for bit alike.
// The halo cells' other faces are kept too, past size(), with gather entries for every
// cell, so that a sum over a cell's own faces (sum_over_cell_faces) runs on halo cells
// with their owners' bits (a halo cell's outer face, to a cell this part does not hold,
// reads as an untagged face between cells: physical 0, distance NaN). Built once per
// local mesh; local (no MPI): distributed_layout::faces() builds it and also agrees over
// the ranks that every part's boundary is tagged.
class face_set {
 public:
  // Scatter blocks hold at most block_size faces; fewer on small meshes, which are cut
  // into at least min_blocks blocks (of at least min_block_size faces) so that threads
  // still share them.
  // flux_window: the faces a gather sum of an antisymmetric flux keeps per worker on the
  // host (see flux_window()); automatic_flux_window measures it, 0 turns the windows off.
  // stored: the optional geometry kept (see face_geometry; all of it by default).
  explicit face_set(const local_mesh& m, index_t block_size = default_face_block_size,
                    index_t flux_window = automatic_flux_window, face_geometry stored = {});
  static constexpr index_t min_blocks = 64;
  static constexpr index_t min_block_size = 16;
  static constexpr index_t automatic_flux_window = -1;
  static constexpr index_t min_flux_window = 64;
  static constexpr index_t max_flux_window = index_t{1} << 15;
  // At most a quad's nodes in a face of the supported cells; room to spare.
  static constexpr std::size_t max_face_nodes = 8;

  // The faces that touch an owned cell (what the scatter form and face fluxes cover).
  index_t size() const { return face_count_; }
  // Those and the halo cells' own faces (entries of halo cells only).
  index_t stored_face_count() const { return all_face_count_; }
  index_t owned_count() const { return owned_count_; }
  // Owned cells none of whose neighbours is a halo cell: [0, interior_count()).
  index_t interior_count() const { return interior_count_; }
  // Faces [0, interior_face_end()) are those of owned-interior cells: they join owned cells
  // only (faces are numbered in the order the cells meet them).
  index_t interior_face_end() const { return interior_face_end_; }
  // Owned + halo cells of the local mesh: the size of the grid functions a loop reads.
  index_t cell_count() const { return cell_count_; }
  // What sum_over_faces reports reading (no values, only the cells' extent), so loops and
  // reductions are sized by the mesh.
  grid_read extent() const {
    grid_read read = grid_read::extent(owned_count_, cell_count_, "the cells of a face set");
    read.face_loop = true;
    return read;
  }
  // Face f's two local cells ([1] == -1 on the domain boundary) and its geometry, out of
  // cells(f)[0] (host reads of the arrays kernels read).
  std::array<index_t, 2> cells(index_t f) const;
  face_view view(index_t f) const;
  // The faces of cell c (owned or halo) in gather order: by their global node ids,
  // ascending (compared as sorted lists), the same on every rank.
  std::vector<index_t> faces_of(index_t c) const;
  // The physical id of the boundary group `name` (dimension - 1), or 0.
  int physical_id(const std::string& name) const;
  std::string physical_name(int id) const;
  // Every boundary group of the global mesh: each needs a boundary flux.
  const std::vector<std::pair<int, std::string>>& boundary_groups() const { return groups_; }
  // Domain-boundary faces of this part that carry no physical group.
  index_t untagged_boundary_faces() const { return untagged_; }
  // How many recent face fluxes each host worker of a gather sum of an antisymmetric flux
  // keeps (a power of two, or 0: off), so that a face's second cell reads the flux its
  // first cell computed instead of evaluating it again. Measured: the smallest window in
  // which, walking the owned cells in order, every face a cell needs is still held
  // (about two faces per cell of the cell order's bandwidth: a few thousand for a
  // locality-ordered 2-D part), within [min_flux_window, max_flux_window].
  index_t flux_window() const { return flux_window_; }
  // The optional geometry this set stores.
  const face_geometry& stored_geometry() const { return stored_; }
  // The mesh's dimension (2 or 3).
  int dimension() const { return dimension_; }
  // Weighted least squares' geometry, for fv::least_squares_gradient: per owned cell, the
  // pseudo-inverse of M = sum over its faces of w d d^T (d = self_offset - other_offset, the
  // step to the neighbour's centroid or, on the domain boundary, to the face centroid;
  // w = 1 / |d|^2), its D (D + 1) / 2 distinct entries (xx, yy, xy in 2-D; xx, yy, zz, xy,
  // xz, yz in 3-D). On the faces of the boundary groups in `mirrored` (physical ids) the
  // step is instead to the cell centroid's mirror image across the face's plane (a ghost
  // cell: 2 (self_offset . n) n), for walls and outflows, whose value at the face centroid
  // is unknown. Built on first use for each such set and kept with the face set (one per layout);
  // the same bits on every rank. A cell whose steps do not span the space (M singular, below 1e-10
  // of its largest eigenvalue) gets the pseudo-inverse: the minimum-norm fit, zero in the
  // directions its steps do not see. Needs cell_offsets; D must be dimension().
  template <int D>
  const grid_function<vec<double, D*(D + 1) / 2>>& least_squares_inverse(
      std::vector<int> mirrored = {}) const;

  // The arrays in `space`, held by `holder` (one token per loop, as grid functions are).
  face_set_view bind_to(memory_space space, token& holder) const;
  [[deprecated(
      "write faces.bind_to(space, holder) (bind(m, k) is the monad's bind)")]] face_set_view
  bind(memory_space space, token& holder) const {
    return bind_to(space, holder);
  }

  // Host copies per local cell (owned, then halo): volume (area in 2-D; empty unless
  // stored_geometry().cell_volume) and centroid (empty unless
  // stored_geometry().cell_centroid), computed alike on every rank. Expressions read them
  // as grid functions: distributed_layout::volume(), centroid(), cell_size().
  const std::vector<double>& cell_volumes() const { return cell_volumes_; }
  const std::vector<std::array<double, 3>>& cell_centroids() const { return cell_centroids_; }
  // The same values as grid functions (owned + halo). Throw when they are not stored.
  grid_function<double> volume_function(std::string name = "volume") const;
  grid_function<vec<double, 3>> centroid_function(std::string name = "centroid") const;
  // 2 * dimension * volume / surface (the sum of the cell's face areas) for the owned
  // cells, from the gather entries; the halo entries are left to the caller (a halo cell's
  // own faces are not in the set). Needs the volumes.
  grid_function<double> owned_cell_size_function(int dimension,
                                                 std::string name = "cell_size") const;
  // The scatter form's blocks of consecutive faces, coloured: no two blocks of one colour
  // write the same owned cell.
  const face_block_colouring& blocks() const { return colouring_; }

 private:
  // The construction's steps (face_set.cpp, face_set_geometry.cpp); `kept` numbers the
  // faces of `all`: the set's, then the halo cells' own.
  void build_gather_entries(const local_mesh& m, const mesh_faces& all,
                            const std::vector<face_index>& kept);
  void build_geometry(const local_mesh& m, const mesh_faces& all,
                      const std::vector<face_index>& kept);
  index_t measured_flux_window() const;
  void store_cell_centroid_columns();
  bool faces_follow_cells() const;

  index_t face_count_ = 0;
  int dimension_ = 0;
  index_t all_face_count_ = 0;
  index_t owned_count_ = 0;
  index_t interior_count_ = 0;
  index_t interior_face_end_ = 0;
  index_t cell_count_ = 0;
  index_t untagged_ = 0;
  index_t flux_window_ = 0;
  face_geometry stored_;
  std::vector<std::pair<int, std::string>> groups_;
  std::vector<double> cell_volumes_;
  std::vector<std::array<double, 3>> cell_centroids_;
  face_block_colouring colouring_;
  // What kernels read (see face_set_view), moved to a device on first use there; host
  // code reads the same arrays.
  array<face_index> entry_offsets_, entry_other_, entry_face_;
  array<vec<face_index, 2>> face_cells_;
  array<double> area_, distance_;
  detail::vec3_arrays normal_, centroid_, cell_centroid_;
  array<index_t> block_offsets_, blocks_;
  // What is built on first use (face_set_least_squares.cpp); shared so the set moves.
  std::shared_ptr<detail::face_set_lazy> lazy_;
};

}  // namespace funcmesh
