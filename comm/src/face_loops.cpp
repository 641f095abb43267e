// face_set construction: global orientation, rank-independent face geometry, gather order
// and the scatter form's colour groups (from partition/face_colouring.hpp).
#include <funcmesh/comm/face_loops.hpp>

#include <funcmesh/comm/communicator.hpp>

#include <funcmesh/partition/face_colouring.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

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

face_set::face_set(const local_mesh& m) : owned_count_(m.owned_count) {
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

  // Scatter groups: computed by partition/, once per local mesh.
  face_colouring colouring = funcmesh::colour_faces(cells, owned_count_);
  colour_offsets = std::move(colouring.offsets);
  colour_faces = std::move(colouring.faces);
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

namespace detail {

std::vector<int> resolve_boundary(const face_set& faces, const std::vector<std::string>& names,
                                  const char* call) {
  int largest = 0;
  for (const auto& group : faces.boundary_groups()) largest = std::max(largest, group.first);
  for (const auto& v : faces.views) largest = std::max(largest, v.physical);
  std::vector<int> which(static_cast<std::size_t>(largest) + 1, -1);
  for (std::size_t k = 0; k < names.size(); ++k) {
    const int id = faces.physical_id(names[k]);
    if (id == 0) {
      throw error(std::string(call) + ": no boundary physical group named \"" + names[k] + "\"");
    }
    which[static_cast<std::size_t>(id)] = static_cast<int>(k);
  }
  // Every group of the global mesh, not only this rank's faces: all ranks agree.
  for (const auto& [id, name] : faces.boundary_groups()) {
    if (which[static_cast<std::size_t>(id)] < 0) {
      throw error(std::string(call) + ": no boundary flux for physical group \"" + name +
                  "\" (id " + std::to_string(id) + "); pass on(\"" + name + "\", flux)");
    }
  }
  for (std::size_t f = 0; f < faces.kind.size(); ++f) {
    if (faces.cells[f][1] < 0 && which[static_cast<std::size_t>(faces.views[f].physical)] < 0) {
      throw error(std::string(call) +
                  ": a domain-boundary face carries no physical group "
                  "(untagged boundary): tag every boundary face");
    }
  }
  return which;
}

std::vector<int> prepare_face_loop(const dist_function<double>& out, const dist_function<double>& u,
                                   const face_set& faces, const std::vector<std::string>& names,
                                   const char* call) {
  std::string failure;
  std::vector<int> which;
  try {
    if (&out == &u) {
      throw error(std::string(call) +
                  ": out and u are the same function: the loop would overwrite values its "
                  "neighbours still read; write into a second function and swap");
    }
    if (out.owned_size() != faces.owned_count() || u.owned_size() != faces.owned_count() ||
        u.local().total_size() != out.local().total_size()) {
      throw error(std::string(call) + ": the face set (" + std::to_string(faces.owned_count()) +
                  " owned cells) and the functions (" + std::to_string(u.owned_size()) + ", " +
                  std::to_string(out.owned_size()) + ") describe different local meshes");
    }
    which = resolve_boundary(faces, names, call);
  } catch (const std::exception& e) {
    failure = e.what();
  }
  mpi::agree(mpi::communicator(u.plan().comm()), failure);
  return which;
}

}  // namespace detail

}  // namespace funcmesh
