// read_gmsh_blocks: the file mapped (pages behind the cursor given back as it goes), read
// twice by the same section parsers with their elements flushed every block: the first
// pass checks tags and keeps the nodes, the second resolves, orients and hands over blocks.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <funcmesh/partition/geometry.hpp>
#include <funcmesh/partition/gmsh_reader.hpp>
#include <funcmesh/partition/mesh_read_error.hpp>

#include "cursor.hpp"
#include "raw_mesh.hpp"

namespace funcmesh {

namespace gmsh {

namespace {

// A read-only mapping of a whole file; give_back drops the resident pages before an offset
// (they are read again from the file if touched).
class mapped_file {
 public:
  explicit mapped_file(const std::filesystem::path& file) : name_(file.string()) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) {
      throw mesh_read_error(
          name_, "", "",
          std::filesystem::exists(file, ec) ? "not a regular file" : "cannot open: no such file");
    }
    const int fd = ::open(name_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      throw mesh_read_error(name_, "", "", "cannot open: " + std::string(std::strerror(errno)));
    struct stat info {};
    if (::fstat(fd, &info) != 0) {
      const int saved = errno;
      ::close(fd);
      throw mesh_read_error(name_, "", "",
                            "cannot read the file: " + std::string(std::strerror(saved)));
    }
    size_ = static_cast<std::size_t>(info.st_size);
    if (size_ > 0) {
      void* at = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (at == MAP_FAILED) {
        const int saved = errno;
        ::close(fd);
        throw mesh_read_error(name_, "", "",
                              "cannot map the file: " + std::string(std::strerror(saved)));
      }
      data_ = static_cast<const std::byte*>(at);
      ::madvise(at, size_, MADV_SEQUENTIAL);
    }
    ::close(fd);
  }
  mapped_file(const mapped_file&) = delete;
  mapped_file& operator=(const mapped_file&) = delete;
  ~mapped_file() {
    if (data_ != nullptr) ::munmap(const_cast<std::byte*>(data_), size_);
  }
  std::span<const std::byte> bytes() const { return {data_, size_}; }
  const std::string& name() const { return name_; }
  void give_back(std::size_t before) const {
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t length = std::min(before, size_) / page * page;
    if (data_ != nullptr && length > 0) {
      ::madvise(const_cast<std::byte*>(data_), length, MADV_DONTNEED);
    }
  }

 private:
  std::string name_;
  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
};

// Element tags seen so far: a bitmap while tags stay dense, else a sorted list.
class tag_set {
 public:
  // False when the tag was seen before.
  bool insert(std::int64_t tag) {
    const auto t = static_cast<std::uint64_t>(tag);
    if (sparse_.empty() && t < 8 * (count_ + 1) + (std::uint64_t{1} << 20)) {
      if (t >= bits_.size()) bits_.resize(std::max<std::size_t>(t + 1, 2 * bits_.size()));
      if (bits_[t]) return false;
      bits_[t] = true;
      ++count_;
      return true;
    }
    if (sparse_.empty()) {  // the tags went sparse: from the bitmap to a list
      for (std::size_t k = 0; k < bits_.size(); ++k) {
        if (bits_[k]) sparse_.insert(static_cast<std::int64_t>(k));
      }
      std::vector<bool>().swap(bits_);
    }
    ++count_;
    return sparse_.insert(tag).second;
  }

 private:
  std::vector<bool> bits_;
  std::set<std::int64_t> sparse_;
  std::uint64_t count_ = 0;
};

}  // namespace

}  // namespace gmsh

void read_gmsh_blocks(
    const std::filesystem::path& file, std::size_t block_elements,
    const std::function<void(const gmsh_header&)>& on_header,
    const std::function<void(const element_block&, int element_dimension)>& on_block) {
  using namespace gmsh;
  const mapped_file mapped(file);
  const std::size_t block = std::max<std::size_t>(1, block_elements);

  // Pass 1: every check of read_gmsh; the nodes kept, the elements counted and dropped.
  cursor first(mapped.bytes(), mapped.name());
  raw_mesh raw;
  int dimension = 0;
  std::set<std::pair<int, int>> groups;  // (dimension, group as written: physical or entity)
  tag_set tags;
  std::optional<node_lookup> nodes;  // once the $Nodes section is read
  std::vector<index_t> element_nodes;
  raw.flush_every = block;
  raw.flush = [&](raw_mesh& r) {
    if (!nodes && r.has_nodes) nodes.emplace(first, r);
    for (std::size_t e = 0; e < r.element_tags.size(); ++e) {
      const int element_dimension = dimension_of(r.element_types[e]);
      dimension = std::max(dimension, element_dimension);
      groups.insert({element_dimension, r.element_groups[e]});
      if (!tags.insert(r.element_tags[e])) {
        first.fail_in("$Elements", r.element_offsets[e],
                      "duplicate element tag " + std::to_string(r.element_tags[e]));
      }
      int physical = 0;  // undefined nodes found here already when $Nodes came first
      if (nodes) resolve_element(first, r, {}, *nodes, 0, e, element_nodes, physical);
    }
    mapped.give_back(first.offset());
  };
  read_sections(first, raw);
  const std::size_t end = first.offset();
  if (!raw.has_nodes) first.fail_in("$Nodes", end, "the file has no $Nodes section");
  if (!raw.has_elements) first.fail_in("$Elements", end, "the file has no $Elements section");
  checked_dimension(first, dimension, raw.elements_offset);
  if (!nodes) nodes.emplace(first, raw);
  mapped.give_back(end);

  gmsh_header header;
  header.dimension = dimension;
  header.coordinates = std::move(raw.coordinates);
  header.node_ids = std::move(raw.node_tags);
  header.source = mapped.name();
  std::set<std::pair<int, int>> used;  // as assemble: (dimension, physical id) of kept elements
  for (const auto& [element_dimension, group] : groups) {
    if (element_dimension < dimension - 1) continue;
    int physical = group;
    if (raw.version == 4) {
      const auto it = raw.entity_physical.find({element_dimension, group});
      physical = it == raw.entity_physical.end() ? 0 : it->second;
    }
    if (physical != 0) used.insert({element_dimension, physical});
  }
  header.physical_groups = std::move(raw.names);
  add_unnamed_groups(header.physical_groups, used);
  on_header(header);

  // Pass 2: the elements again, block by block, resolved and oriented as read_gmsh and
  // normalize_orientation would. The cells are oriented in a mesh that borrows the
  // header's nodes (moved in and back: the arrays stay where on_header saw them).
  const auto entity_physical = std::move(raw.entity_physical);
  raw_mesh again;
  again.skip_nodes = true;
  again.flush_every = block;
  cursor second(mapped.bytes(), mapped.name());
  mesh chunk;
  chunk.dimension = dimension;
  chunk.source = mapped.name();
  chunk.gmsh_tags = true;
  again.flush = [&](raw_mesh& r) {
    chunk.cells = element_block{};
    chunk.boundary = element_block{};
    for (std::size_t e = 0; e < r.element_tags.size(); ++e) {
      int physical = 0;
      if (!resolve_element(second, r, entity_physical, *nodes, dimension, e, element_nodes,
                           physical)) {
        continue;
      }
      const cell_type type = r.element_types[e];
      element_block& to = dimension_of(type) == dimension ? chunk.cells : chunk.boundary;
      to.add(type, element_nodes, r.element_tags[e], physical);
    }
    chunk.coordinates = std::move(header.coordinates);
    chunk.node_ids = std::move(header.node_ids);
    const auto give_back_nodes = [&] {
      header.coordinates = std::move(chunk.coordinates);
      header.node_ids = std::move(chunk.node_ids);
    };
    try {
      normalize_orientation(chunk);
    } catch (...) {
      give_back_nodes();
      throw;
    }
    give_back_nodes();
    if (chunk.cells.size() > 0) on_block(chunk.cells, dimension);
    if (chunk.boundary.size() > 0) on_block(chunk.boundary, dimension - 1);
    mapped.give_back(second.offset());
  };
  read_sections(second, again);
}

}  // namespace funcmesh
