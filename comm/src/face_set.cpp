// face_set construction: global orientation, rank-independent face geometry, gather order
// and the scatter form's coloured blocks of faces (from partition/face_colouring.hpp).
#include <funcmesh/comm/face_set.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <funcmesh/partition/geometry.hpp>
#include <funcmesh/partition/mesh_faces.hpp>

namespace funcmesh {

namespace {

using point = std::array<double, 3>;

point minus(const point& a, const point& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double norm(const point& a) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

struct face_geometry {
  double area = 0;
  point normal{0, 0, 0};
  point centroid{0, 0, 0};
};

// `nodes` (local node ids) oriented out of the face's global first cell, rotated to start at
// the lowest global node id: the same sequence, so the same bits, on every rank. Mirrors
// compute_geometry's formulas.
face_geometry canonical_geometry(const local_mesh& m, std::vector<index_t> nodes) {
  const auto lowest = std::ranges::min_element(nodes, [&](index_t a, index_t b) {
    return m.global_node[static_cast<std::size_t>(a)] < m.global_node[static_cast<std::size_t>(b)];
  });
  // An edge's direction is its orientation: only polygons (3-D faces) may be rotated.
  if (nodes.size() > 2) std::ranges::rotate(nodes, lowest);
  auto p = [&](std::size_t k) { return m.cells.coordinates[static_cast<std::size_t>(nodes[k])]; };
  face_geometry g;
  if (nodes.size() == 2) {  // an edge of a 2-D cell: right-hand normal out of the cell
    const point d = minus(p(1), p(0));
    g.area = norm(d);
    g.normal = {d[1] / g.area, -d[0] / g.area, 0};
    for (std::size_t k = 0; k < 3; ++k) g.centroid[k] = 0.5 * (p(0)[k] + p(1)[k]);
    return g;
  }
  const auto n = nodes.size();
  point centre{0, 0, 0};
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < 3; ++k) centre[k] += p(i)[k];
  }
  for (std::size_t k = 0; k < 3; ++k) centre[k] /= static_cast<double>(n);
  point area{0, 0, 0}, moment{0, 0, 0};
  double weight = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const point a = minus(p(i), centre), b = minus(p((i + 1) % n), centre);
    const point c{0.5 * (a[1] * b[2] - a[2] * b[1]), 0.5 * (a[2] * b[0] - a[0] * b[2]),
                  0.5 * (a[0] * b[1] - a[1] * b[0])};
    const double size = norm(c);
    for (std::size_t k = 0; k < 3; ++k) {
      area[k] += c[k];
      moment[k] += (size / 3.0) * (centre[k] + p(i)[k] + p((i + 1) % n)[k]);
    }
    weight += size;
  }
  g.area = norm(area);
  for (std::size_t k = 0; k < 3; ++k) {
    g.normal[k] = area[k] / g.area;
    g.centroid[k] = weight > 0 ? moment[k] / weight : centre[k];
  }
  return g;
}

}  // namespace

face_set::face_set(const local_mesh& m, index_t block_size)
    : owned_count_(m.owned_count), cell_count_(m.cells.cell_count()) {
  const mesh_faces all = build_faces(m.cells);
  const std::vector<face_kind> kinds = classify_faces(m, all);
  const mesh_geometry geometry = compute_geometry(m.cells, all);
  const int boundary_dimension = m.cells.dimension - 1;
  for (const auto& g : m.cells.physical_groups) {
    if (g.dimension == boundary_dimension) groups_.emplace_back(g.id, g.name);
  }
  auto gid = [&](index_t c) { return m.global_cell[static_cast<std::size_t>(c)]; };

  std::vector<index_t> local_index(static_cast<std::size_t>(all.size()), -1);
  std::vector<std::vector<std::int64_t>> keys;
  for (index_t f = 0; f < all.size(); ++f) {
    const face_kind k = kinds[static_cast<std::size_t>(f)];
    if (k == face_kind::halo) continue;
    std::array<index_t, 2> two = all.cells[static_cast<std::size_t>(f)];
    const auto span = all.nodes_of(f);
    std::vector<index_t> nodes(span.begin(), span.end());
    if (two[1] >= 0 && gid(two[1]) < gid(two[0])) {
      std::swap(two[0], two[1]);
      std::ranges::reverse(nodes);
    }
    const face_geometry g = canonical_geometry(m, nodes);
    face_view v;
    v.area = g.area;
    for (int i = 0; i < 3; ++i) v.normal[i] = g.normal[static_cast<std::size_t>(i)];
    const point& left = geometry.cell_centroid[static_cast<std::size_t>(two[0])];
    v.distance = two[1] >= 0
                     ? norm(minus(geometry.cell_centroid[static_cast<std::size_t>(two[1])], left))
                     : norm(minus(g.centroid, left));
    v.physical = two[1] >= 0 ? 0 : all.physical[static_cast<std::size_t>(f)];
    for (int i = 0; i < 3; ++i) v.centroid[i] = g.centroid[static_cast<std::size_t>(i)];
    local_index[static_cast<std::size_t>(f)] = size();
    cells.push_back(two);
    kind.push_back(k);
    views.push_back(v);
    // Gather key tail: the face's global node ids, sorted, to break any tie.
    std::vector<std::int64_t> tail;
    for (const index_t node : nodes) tail.push_back(m.global_node[static_cast<std::size_t>(node)]);
    std::ranges::sort(tail);
    keys.push_back(std::move(tail));
  }

  // Gather order per owned cell: (boundary?, neighbour global id or physical id, nodes).
  for (index_t c = 0; c < owned_count_; ++c) {
    std::vector<std::pair<std::vector<std::int64_t>, index_t>> order;
    for (const index_t f : all.faces_of(c)) {
      const index_t l = local_index[static_cast<std::size_t>(f)];
      const auto& two = cells[static_cast<std::size_t>(l)];
      std::vector<std::int64_t> key;
      if (two[1] < 0) {
        key = {1, views[static_cast<std::size_t>(l)].physical};
      } else {
        key = {0, gid(two[0] == c ? two[1] : two[0])};
      }
      const auto& tail = keys[static_cast<std::size_t>(l)];
      key.insert(key.end(), tail.begin(), tail.end());
      order.emplace_back(std::move(key), l);
    }
    std::ranges::sort(order);
    for (const auto& entry : order) cell_faces.push_back(entry.second);
    cell_offsets.push_back(static_cast<index_t>(cell_faces.size()));
  }

  // Scatter blocks: computed by partition/, once per local mesh. The faces stay in their
  // order (it follows the cells, for cache reuse); only whole blocks are coloured.
  const index_t spread = std::max(min_block_size, (size() + min_blocks - 1) / min_blocks);
  blocks = colour_face_blocks(cells, owned_count_, std::min(block_size, spread));

  // The kernels' arrays: per gather entry, the other cell and the face seen from c.
  const std::size_t entries = cell_faces.size();
  std::vector<index_t> other(entries);
  std::vector<double> area(entries), distance(entries);
  std::vector<vec<double, 3>> normal(entries), centre(entries);
  for (index_t c = 0; c < owned_count_; ++c) {
    for (auto k = static_cast<std::size_t>(cell_offsets[static_cast<std::size_t>(c)]);
         k < static_cast<std::size_t>(cell_offsets[static_cast<std::size_t>(c) + 1]); ++k) {
      const auto f = static_cast<std::size_t>(cell_faces[k]);
      const bool left = cells[f][0] == c;
      other[k] = cells[f][1] < 0 ? -1 - views[f].physical : cells[f][left ? 1 : 0];
      area[k] = views[f].area;
      distance[k] = views[f].distance;
      for (int d = 0; d < 3; ++d) normal[k][d] = left ? views[f].normal[d] : -views[f].normal[d];
      centre[k] = views[f].centroid;
    }
  }
  entry_offsets_ = array<index_t>(std::span<const index_t>(cell_offsets));
  entry_other_ = array<index_t>(std::span<const index_t>(other));
  entry_area_ = array<double>(std::span<const double>(area));
  entry_distance_ = array<double>(std::span<const double>(distance));
  entry_normal_.assign(normal);
  entry_centroid_.assign(centre);

  // ... and per face in face order, oriented out of its first cell.
  const std::size_t count = cells.size();
  std::vector<vec<index_t, 2>> pairs(count);
  std::vector<int> physical(count);
  area.assign(count, 0);
  distance.assign(count, 0);
  normal.assign(count, vec<double, 3>{});
  centre.assign(count, vec<double, 3>{});
  for (std::size_t f = 0; f < count; ++f) {
    pairs[f] = {{cells[f][0], cells[f][1]}};
    area[f] = views[f].area;
    distance[f] = views[f].distance;
    normal[f] = views[f].normal;
    physical[f] = views[f].physical;
    centre[f] = views[f].centroid;
  }
  scatter_cells_ = array<vec<index_t, 2>>(std::span<const vec<index_t, 2>>(pairs));
  scatter_area_ = array<double>(std::span<const double>(area));
  scatter_distance_ = array<double>(std::span<const double>(distance));
  scatter_normal_.assign(normal);
  scatter_physical_ = array<int>(std::span<const int>(physical));
  scatter_centroid_.assign(centre);
  block_offsets_ = array<index_t>(std::span<const index_t>(blocks.block_offsets));
  blocks_ = array<index_t>(std::span<const index_t>(blocks.blocks));
  volume = geometry.cell_volume;
  centroid = geometry.cell_centroid;

  for (std::size_t f = 0; f < cells.size(); ++f) {
    const int id = views[f].physical;
    const bool grouped =
        std::ranges::any_of(groups_, [id](const auto& group) { return group.first == id; });
    if (cells[f][1] < 0 && !grouped) ++untagged_;
  }
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

void detail::vec3_arrays::assign(const std::vector<vec<double, 3>>& values) {
  const auto n = static_cast<index_t>(values.size());
  x = array<double>(n);
  y = array<double>(n);
  z = array<double>(n);
  auto a = x.overwrite(), b = y.overwrite(), c = z.overwrite();
  for (index_t i = 0; i < n; ++i) {
    const auto& v = values[static_cast<std::size_t>(i)];
    a[i] = v[0];
    b[i] = v[1];
    c[i] = v[2];
  }
}

grid_function<double> face_set::volume_function(std::string name) const {
  grid_function<double> result(owned_count_, cell_count_ - owned_count_, std::move(name));
  auto values = result.write();
  for (index_t c = 0; c < cell_count_; ++c) values[c] = volume[static_cast<std::size_t>(c)];
  return result;
}

face_set_view face_set::bind(memory_space space, token& holder) const {
  face_set_view v;
  v.offsets = entry_offsets_.read_view(space, holder);
  v.other = entry_other_.read_view(space, holder);
  v.area = entry_area_.read_view(space, holder);
  v.normal = entry_normal_.bind(space, holder);
  v.distance = entry_distance_.read_view(space, holder);
  v.centroid = entry_centroid_.bind(space, holder);
  v.scatter_cells = scatter_cells_.read_view(space, holder);
  v.scatter_area = scatter_area_.read_view(space, holder);
  v.scatter_normal = scatter_normal_.bind(space, holder);
  v.scatter_distance = scatter_distance_.read_view(space, holder);
  v.scatter_physical = scatter_physical_.read_view(space, holder);
  v.scatter_centroid = scatter_centroid_.bind(space, holder);
  v.block_offsets = block_offsets_.read_view(space, holder);
  v.blocks = blocks_.read_view(space, holder);
  return v;
}

}  // namespace funcmesh
