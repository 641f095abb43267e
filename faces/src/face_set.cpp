// face_set construction: global orientation, rank-independent face geometry, gather order
// and the scatter form's coloured blocks of faces (from partition/face_colouring.hpp).
#include <funcmesh/faces/detail/flux_window.hpp>
#include <funcmesh/faces/detail/freed_memory.hpp>
#include <funcmesh/faces/face_set.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/geometry.hpp>
#include <funcmesh/partition/mesh_faces.hpp>

namespace funcmesh {

namespace {

// A count the 32-bit face indices must hold.
face_index checked_face_index(std::size_t count, const char* what) {
  if (count >= static_cast<std::size_t>(std::numeric_limits<face_index>::max())) {
    throw error("funcmesh::face_set: this part has " + std::to_string(count) + " " + what +
                "; a part holds at most 2^31 - 2 (32-bit local indices): use more ranks");
  }
  return static_cast<face_index>(count);
}

// One of a cell's faces as the gather order sorts them: by the face's global node ids
// (ascending, compared lexicographically; then the face's index, which never decides
// between two faces of a valid cell). Nothing but the face's own nodes: a halo cell, whose
// outer faces lead to cells this part does not hold, sorts its faces as its owner does,
// so a cell-local sum over its faces has the owner's bits.
struct gather_key {
  std::array<std::int64_t, face_set::max_face_nodes> nodes{};
  std::size_t count = 0;
  face_index entry = 0;  // what the entry stores: f, or -1 - f from the second cell

  friend bool operator<(const gather_key& a, const gather_key& b) {
    const auto an = a.nodes.begin(), bn = b.nodes.begin();
    if (!std::equal(an, an + static_cast<std::ptrdiff_t>(a.count), bn,
                    bn + static_cast<std::ptrdiff_t>(b.count))) {
      return std::lexicographical_compare(an, an + static_cast<std::ptrdiff_t>(a.count), bn,
                                          bn + static_cast<std::ptrdiff_t>(b.count));
    }
    return face_set_view::face_of(a.entry) < face_set_view::face_of(b.entry);
  }
};

// A cell's few faces, a face's few nodes: an insertion sort (std::sort here trips GCC 12's
// -Warray-bounds on the fixed-size keys).
template <class It>
void insertion_sort(It first, It last) {
  for (It i = first; i != last; ++i) {
    for (It j = i; j != first && *j < *(j - 1); --j) std::iter_swap(j, j - 1);
  }
}

// The local cell the cell order meets a face at: the lower of its cells.
face_index lower_cell(const vec<face_index, 2>& two) {
  return two[1] < 0 ? two[0] : std::min(two[0], two[1]);
}

}  // namespace

face_set::face_set(const local_mesh& m, index_t block_size, index_t flux_window,
                   face_geometry stored)
    : dimension_(m.cells.dimension),
      owned_count_(m.owned_count),
      interior_count_(m.interior_count),
      cell_count_(m.cells.cell_count()),
      stored_(stored) {
  if (flux_window < 0 && flux_window != automatic_flux_window) {
    throw error("funcmesh::face_set: flux_window " + std::to_string(flux_window) +
                " is negative (0 turns the windows off)");
  }
  // The offsets are measured from the face centroids: asking for them stores those.
  if (stored_.cell_offsets) stored_.face_centroid = true;
  lazy_ = detail::make_face_set_lazy();
  const int boundary_dimension = m.cells.dimension - 1;
  for (const auto& g : m.cells.physical_groups) {
    if (g.dimension == boundary_dimension) groups_.emplace_back(g.id, g.name);
  }
  checked_face_index(static_cast<std::size_t>(cell_count_), "cells");
  {
    cell_geometry cells_geometry = compute_cell_geometry(m.cells);
    // Computed either way: it refuses cells of no positive volume.
    if (stored_.cell_volume) cell_volumes_ = std::move(cells_geometry.cell_volume);
    // The cells' centroids serve the distances and face_set::cell_centroids_ only: without
    // either, they go before the face list is built (the set-up's peak).
    if (stored_.distance || stored_.cell_centroid || stored_.cell_offsets) {
      cell_centroids_ = std::move(cells_geometry.cell_centroid);
    }
  }
  auto gid = [&](index_t c) { return m.global_cell[static_cast<std::size_t>(c)]; };

  // The set-up's peak is the face list `all` beside the columns; each step below frees what
  // the next no longer reads: cells and tags, then each cell's faces, then the nodes.
  mesh_faces all = build_faces(m.cells);
  // Every face, numbered in the order of `all`: first those that touch an owned cell (the
  // set's faces, [0, size())), then the halo cells' own ones (read only by cell-local sums
  // over owned and halo cells).
  std::vector<face_index> kept(static_cast<std::size_t>(all.size()), -1);
  {
    const std::vector<face_kind> kinds = classify_faces(m, all);
    std::size_t count = 0;
    for (std::size_t f = 0; f < kinds.size(); ++f) {
      if (kinds[f] != face_kind::halo) kept[f] = static_cast<face_index>(count++);
    }
    face_count_ = checked_face_index(count, "faces");
    for (std::size_t f = 0; f < kinds.size(); ++f) {
      if (kinds[f] == face_kind::halo) kept[f] = static_cast<face_index>(count++);
    }
    all_face_count_ = checked_face_index(count, "faces");
  }
  for (index_t f = 0; f < all.size(); ++f) {
    if (all.nodes_of(f).size() > max_face_nodes) {
      throw error("funcmesh::face_set: a face with " + std::to_string(all.nodes_of(f).size()) +
                  " nodes");
    }
  }

  // Cells (the lower global id first); a boundary face's second is -1 - its tag.
  face_cells_ = array<vec<face_index, 2>>(all_face_count_);
  {
    auto two_of = face_cells_.overwrite();
    for (index_t f = 0; f < all.size(); ++f) {
      const face_index l = kept[static_cast<std::size_t>(f)];
      if (l < 0) continue;
      std::array<index_t, 2> two = all.cells[static_cast<std::size_t>(f)];
      if (two[1] >= 0 && gid(two[1]) < gid(two[0])) std::swap(two[0], two[1]);
      if (two[1] < 0) {
        // A halo cell's outer face (its other cell is not in this part) is untagged: 0, as
        // between two cells.
        const int physical = all.physical[static_cast<std::size_t>(f)];
        if (physical < 0) {
          throw error("funcmesh::face_set: a boundary face carries the negative physical id " +
                      std::to_string(physical) + " (boundary group ids are >= 0)");
        }
        two[1] = -1 - index_t{physical};
      }
      two_of[l] = {{static_cast<face_index>(two[0]), static_cast<face_index>(two[1])}};
    }
  }
  std::vector<std::array<index_t, 2>>().swap(all.cells);
  std::vector<cell_type>().swap(all.types);
  std::vector<int>().swap(all.physical);
  detail::return_freed_memory();  // freed inside the heap: give the pages back at once

  build_gather_entries(m, all, kept);
  std::vector<index_t>().swap(all.cell_offsets);
  std::vector<index_t>().swap(all.cell_faces);
  detail::return_freed_memory();

  build_geometry(m, all, kept);
  all = mesh_faces{};
  std::vector<face_index>().swap(kept);
  if (stored_.cell_offsets) store_cell_centroid_columns();
  if (!stored_.cell_centroid) std::vector<std::array<double, 3>>().swap(cell_centroids_);

  // Scatter blocks: computed by partition/, once per local mesh. The faces stay in their
  // order (it follows the cells, for cache reuse); only whole blocks are coloured.
  {
    std::vector<std::array<index_t, 2>> pairs(static_cast<std::size_t>(face_count_));
    const auto two_of = face_cells_.read();
    for (index_t f = 0; f < face_count_; ++f) {
      pairs[static_cast<std::size_t>(f)] = {two_of[f][0], std::max(two_of[f][1], -1)};
      const int id = face_set_view::physical_of(two_of[f][1]);
      const bool grouped =
          std::ranges::any_of(groups_, [id](const auto& group) { return group.first == id; });
      if (two_of[f][1] < 0 && !grouped) ++untagged_;
    }
    const index_t spread = std::max(min_block_size, (size() + min_blocks - 1) / min_blocks);
    colouring_ = colour_face_blocks(pairs, owned_count_, std::min(block_size, spread));
  }
  block_offsets_ = array<index_t>(std::span<const index_t>(colouring_.block_offsets));
  blocks_ = array<index_t>(std::span<const index_t>(colouring_.blocks));
  flux_window_ = flux_window == automatic_flux_window ? measured_flux_window() : flux_window;
  if (flux_window_ > 0) flux_window_ = std::bit_ceil(static_cast<std::uint64_t>(flux_window_));
  if (!faces_follow_cells()) flux_window_ = 0;
  const auto two_of = face_cells_.read();
  while (interior_face_end_ < face_count_ &&
         lower_cell(two_of[interior_face_end_]) < interior_count_) {
    ++interior_face_end_;
  }
}

// Gather order per cell (owned, then halo), and per entry the other cell and the face seen
// from c (a halo cell's outer face: other -1, as an untagged boundary).
void face_set::build_gather_entries(const local_mesh& m, const mesh_faces& all,
                                    const std::vector<face_index>& kept) {
  std::size_t entries = 0;
  for (index_t c = 0; c < cell_count_; ++c) entries += all.faces_of(c).size();
  checked_face_index(entries, "gather entries");
  entry_offsets_ = array<face_index>(cell_count_ + 1);
  entry_other_ = array<face_index>(static_cast<index_t>(entries));
  entry_face_ = array<face_index>(static_cast<index_t>(entries));
  auto offsets = entry_offsets_.overwrite();
  auto other = entry_other_.overwrite();
  auto entry_face = entry_face_.overwrite();
  const auto two_of = face_cells_.read();
  std::vector<gather_key> order;
  face_index at = 0;
  offsets[0] = 0;
  for (index_t c = 0; c < cell_count_; ++c) {
    order.clear();
    for (const index_t f : all.faces_of(c)) {
      const face_index l = kept[static_cast<std::size_t>(f)];
      const auto two = two_of[l];
      gather_key key;
      const auto span = all.nodes_of(f);
      key.count = std::min(span.size(), face_set::max_face_nodes);  // checked above
      for (std::size_t k = 0; k < key.count; ++k) {
        key.nodes[k] = m.global_node[static_cast<std::size_t>(span[k])];
      }
      insertion_sort(key.nodes.begin(), key.nodes.begin() + static_cast<std::ptrdiff_t>(key.count));
      key.entry = two[0] == c ? l : -1 - l;
      order.push_back(key);
    }
    insertion_sort(order.begin(), order.end());
    for (const gather_key& key : order) {
      const index_t l = face_set_view::face_of(key.entry);
      const auto two = two_of[l];
      other[at] = two[1] < 0 ? two[1] : (key.entry >= 0 ? two[1] : two[0]);
      entry_face[at] = key.entry;
      ++at;
    }
    offsets[c + 1] = at;
  }
}

// Walking the owned cells in order, a worker's window reaches the highest face met so far;
// cell c needs it to reach down to c's lowest face.
index_t face_set::measured_flux_window() const {
  const auto offsets = entry_offsets_.read();
  const auto entry_face = entry_face_.read();
  index_t reach = -1, need = 1;
  for (index_t c = 0; c < owned_count_; ++c) {
    index_t first = std::numeric_limits<index_t>::max();
    for (index_t k = offsets[c]; k < offsets[c + 1]; ++k) {
      const index_t f = face_set_view::face_of(entry_face[k]);
      first = std::min(first, f);
      reach = std::max(reach, f);
    }
    if (offsets[c] < offsets[c + 1]) need = std::max(need, reach + 1 - first);
  }
  // Room for the faces a window computes ahead of its cell.
  return std::clamp(need + detail::flux_windows::faces_ahead, min_flux_window, max_flux_window);
}

// Whether faces are numbered in the order the cells meet them (each face's lower local cell
// never decreases): what lets a window advance before the halo has arrived (see
// detail/flux_window.hpp). build_faces numbers them so; without it the windows are off.
bool face_set::faces_follow_cells() const {
  const auto two_of = face_cells_.read();
  face_index previous = 0;
  for (index_t f = 0; f < face_count_; ++f) {
    const face_index lower = lower_cell(two_of[f]);
    if (lower < previous) return false;
    previous = lower;
  }
  return true;
}

std::array<index_t, 2> face_set::cells(index_t f) const {
  const auto two = face_cells_.read()[f];
  return {two[0], std::max<index_t>(two[1], -1)};
}

face_view face_set::view(index_t f) const {
  token holder;
  return bind_to(host_space, holder).face(f);
}

std::vector<index_t> face_set::faces_of(index_t c) const {
  const auto offsets = entry_offsets_.read();
  const auto entry_face = entry_face_.read();
  std::vector<index_t> result;
  for (index_t k = offsets[c]; k < offsets[c + 1]; ++k) {
    result.push_back(face_set_view::face_of(entry_face[k]));
  }
  return result;
}

int face_set::physical_id(const std::string& name) const {
  for (const auto& [id, group] : groups_) {
    if (group == name) return id;
  }
  return 0;
}

std::string face_set::physical_name(int id) const {
  for (const auto& [group, name] : groups_) {
    if (group == id) return name;
  }
  return {};
}

grid_function<double> face_set::volume_function(std::string name) const {
  if (!stored_.cell_volume) {
    throw error(
        "funcmesh::face_set::volume_function: the cell volumes are not stored (the "
        "face set was built with face_geometry::cell_volume off)");
  }
  grid_function<double> result(owned_count_, cell_count_ - owned_count_, std::move(name));
  auto values = result.write();
  for (index_t c = 0; c < cell_count_; ++c) values[c] = cell_volumes_[static_cast<std::size_t>(c)];
  return result;
}

grid_function<vec<double, 3>> face_set::centroid_function(std::string name) const {
  if (!stored_.cell_centroid) {
    throw error(
        "funcmesh::face_set::centroid_function: the cell centroids are not stored (the "
        "face set was built with face_geometry::cell_centroid off)");
  }
  grid_function<vec<double, 3>> result(owned_count_, cell_count_ - owned_count_, std::move(name));
  auto values = result.write();
  for (index_t c = 0; c < cell_count_; ++c) {
    const auto& x = cell_centroids_[static_cast<std::size_t>(c)];
    values[c] = vec<double, 3>{{x[0], x[1], x[2]}};
  }
  return result;
}

grid_function<double> face_set::owned_cell_size_function(int dimension, std::string name) const {
  if (!stored_.cell_volume) {
    throw error(
        "funcmesh::face_set::owned_cell_size_function: the cell volumes are not stored (the "
        "face set was built with face_geometry::cell_volume off)");
  }
  grid_function<double> result(owned_count_, cell_count_ - owned_count_, std::move(name));
  auto values = result.write();
  const auto offsets = entry_offsets_.read();
  const auto entry_face = entry_face_.read();
  const auto area = area_.read();
  // The gather order of a cell's faces is global, so the surface has the same bits on
  // every rank.
  for (index_t c = 0; c < owned_count_; ++c) {
    double surface = 0;
    for (index_t k = offsets[c]; k < offsets[c + 1]; ++k) {
      surface += area[face_set_view::face_of(entry_face[k])];
    }
    values[c] = 2.0 * dimension * cell_volumes_[static_cast<std::size_t>(c)] / surface;
  }
  return result;
}

face_set_view face_set::bind_to(memory_space space, token& holder) const {
  face_set_view v;
  v.offsets = entry_offsets_.read_view(space, holder);
  v.other = entry_other_.read_view(space, holder);
  v.entry_face = entry_face_.read_view(space, holder);
  v.face_cells = face_cells_.read_view(space, holder);
  v.area = area_.read_view(space, holder);
  v.normal = normal_.bind_to(space, holder);
  v.distance = distance_.read_view(space, holder);
  v.centroid = centroid_.bind_to(space, holder);
  v.block_offsets = block_offsets_.read_view(space, holder);
  v.blocks = blocks_.read_view(space, holder);
  v.cell_centroid = cell_centroid_.bind_to(space, holder);
  return v;
}

}  // namespace funcmesh
