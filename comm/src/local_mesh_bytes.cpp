// A local mesh as one byte string: fixed-width counts followed by the raw contents of each
// vector (all trivially copyable), strings as length + bytes. Both ends are the same
// build of funcmesh, so layout and endianness agree.
#include <cstring>
#include <string>
#include <type_traits>

#include <funcmesh/comm/distribute.hpp>
#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/core/error.hpp>

namespace funcmesh::detail {

namespace {

class writer {
 public:
  template <class T>
  void value(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const std::byte*>(&v);
    bytes_.insert(bytes_.end(), p, p + sizeof(T));
  }
  template <class T>
  void vector(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    value(static_cast<std::uint64_t>(v.size()));
    const auto* p = reinterpret_cast<const std::byte*>(v.data());
    bytes_.insert(bytes_.end(), p, p + v.size() * sizeof(T));
  }
  void string(const std::string& s) {
    value(static_cast<std::uint64_t>(s.size()));
    const auto* p = reinterpret_cast<const std::byte*>(s.data());
    bytes_.insert(bytes_.end(), p, p + s.size());
  }
  std::vector<std::byte> take() { return std::move(bytes_); }

 private:
  std::vector<std::byte> bytes_;
};

class reader {
 public:
  explicit reader(std::span<const std::byte> bytes) : bytes_(bytes) {}
  template <class T>
  T value() {
    T v{};
    take(&v, sizeof(T));
    return v;
  }
  template <class T>
  std::vector<T> vector() {
    const auto count = value<std::uint64_t>();
    if (count > (bytes_.size() - at_) / sizeof(T)) fail();
    std::vector<T> v(static_cast<std::size_t>(count));
    take(v.data(), v.size() * sizeof(T));
    return v;
  }
  std::string string() {
    const auto count = value<std::uint64_t>();
    if (count > bytes_.size() - at_) fail();
    std::string s(static_cast<std::size_t>(count), '\0');
    take(s.data(), s.size());
    return s;
  }
  bool done() const { return at_ == bytes_.size(); }

 private:
  void take(void* to, std::size_t count) {
    if (count > bytes_.size() - at_) fail();
    if (count > 0) std::memcpy(to, bytes_.data() + at_, count);
    at_ += count;
  }
  [[noreturn]] void fail() const {
    throw error(mpi::rank_prefix() +
                "funcmesh::distribute: a received local mesh is truncated or corrupt (at byte " +
                std::to_string(at_) + " of " + std::to_string(bytes_.size()) + ")");
  }
  std::span<const std::byte> bytes_;
  std::size_t at_ = 0;
};

void write_block(writer& w, const element_block& b) {
  w.vector(b.types);
  w.vector(b.offsets);
  w.vector(b.nodes);
  w.vector(b.ids);
  w.vector(b.physical);
}

element_block read_block(reader& r) {
  element_block b;
  b.types = r.vector<cell_type>();
  b.offsets = r.vector<index_t>();
  b.nodes = r.vector<index_t>();
  b.ids = r.vector<std::int64_t>();
  b.physical = r.vector<int>();
  return b;
}

}  // namespace

std::vector<std::byte> serialize(const local_mesh& local) {
  writer w;
  w.value(local.part);
  w.value(local.parts);
  w.value(local.interior_count);
  w.value(local.owned_count);
  w.vector(local.global_cell);
  w.vector(local.global_node);
  w.vector(local.halo_owner_offsets);
  w.value(static_cast<std::uint64_t>(local.neighbours.size()));
  for (const neighbour_lists& n : local.neighbours) {
    w.value(n.part);
    w.vector(n.send);
    w.vector(n.receive);
  }
  const mesh& m = local.cells;
  w.value(m.dimension);
  w.vector(m.coordinates);
  w.vector(m.node_ids);
  write_block(w, m.cells);
  write_block(w, m.boundary);
  w.value(static_cast<std::uint64_t>(m.physical_groups.size()));
  for (const physical_group& g : m.physical_groups) {
    w.value(g.dimension);
    w.value(g.id);
    w.string(g.name);
  }
  return w.take();
}

local_mesh deserialize(std::span<const std::byte> bytes) {
  reader r(bytes);
  local_mesh local;
  local.part = r.value<int>();
  local.parts = r.value<int>();
  local.interior_count = r.value<index_t>();
  local.owned_count = r.value<index_t>();
  local.global_cell = r.vector<index_t>();
  local.global_node = r.vector<index_t>();
  local.halo_owner_offsets = r.vector<index_t>();
  const auto neighbours = r.value<std::uint64_t>();
  for (std::uint64_t k = 0; k < neighbours; ++k) {
    neighbour_lists n;
    n.part = r.value<int>();
    n.send = r.vector<index_t>();
    n.receive = r.vector<index_t>();
    local.neighbours.push_back(std::move(n));
  }
  mesh& m = local.cells;
  m.dimension = r.value<int>();
  m.coordinates = r.vector<std::array<double, 3>>();
  m.node_ids = r.vector<std::int64_t>();
  m.cells = read_block(r);
  m.boundary = read_block(r);
  const auto groups = r.value<std::uint64_t>();
  for (std::uint64_t k = 0; k < groups; ++k) {
    physical_group g;
    g.dimension = r.value<int>();
    g.id = r.value<int>();
    g.name = r.string();
    m.physical_groups.push_back(std::move(g));
  }
  if (!r.done()) {
    throw error(mpi::rank_prefix() +
                "funcmesh::distribute: a received local mesh has trailing bytes");
  }
  return local;
}

}  // namespace funcmesh::detail
