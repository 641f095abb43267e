// MSH 4.1 $Entities, $Nodes and $Elements, ASCII and binary. Binary 4.1 writes ints as
// 4 bytes and counts and tags as 8-byte size_t (data size 8).
#include <string>

#include "raw_mesh.hpp"

namespace funcmesh::gmsh {

namespace {

// Smallest bytes a record can take, to bound counts by the file size before reserving.
constexpr std::size_t ascii_record_bytes = 4;        // "1\n0 0 0\n" is two records of >= 2
constexpr std::size_t msh4_ascii_node_bytes = 8;     // "1\n" + "0 0 0\n"
constexpr std::size_t msh4_binary_node_bytes = 32;   // size_t tag + 3 doubles
constexpr std::size_t msh4_binary_block_bytes = 20;  // 3 ints + size_t
constexpr std::size_t binary_entity_bytes = 36;      // int + 3 doubles + size_t

// The four numbers that open $Nodes and $Elements: blocks, total, min tag, max tag.
std::array<std::int64_t, 4> section_header(cursor& in, std::string_view what) {
  std::array<std::int64_t, 4> header{};
  if (in.binary()) {
    for (auto& value : header) value = in.read_size(what);
  } else {
    const auto tokens = in.expect_tokens(4, what);
    for (std::size_t k = 0; k < 4; ++k) header[k] = in.to_int64(tokens[k], what);
  }
  return header;
}

struct block_header {
  int dimension = 0;
  int entity = 0;
  int kind = 0;  // parametric flag ($Nodes) or element type ($Elements)
  std::int64_t size = 0;
  std::size_t at = 0;
};

block_header read_block_header(cursor& in, std::string_view what) {
  block_header block;
  block.at = in.offset();
  if (in.binary()) {
    block.dimension = in.read<std::int32_t>(what);
    block.entity = in.read<std::int32_t>(what);
    block.kind = in.read<std::int32_t>(what);
    block.size = in.read_size(what);
  } else {
    const auto tokens = in.expect_tokens(4, what);
    block.at = in.offset_of(tokens[0]);
    block.dimension = in.to_int(tokens[0], "entity dimension");
    block.entity = in.to_int(tokens[1], "entity tag");
    block.kind = in.to_int(tokens[2], what);
    block.size = in.to_int64(tokens[3], "block size");
  }
  if (block.dimension < 0 || block.dimension > 3) {
    in.fail_at(block.at, "entity dimension " + std::to_string(block.dimension) + " is not 0..3");
  }
  return block;
}

void check_block_size(const cursor& in, const block_header& block, std::int64_t done,
                      std::int64_t total, std::string_view what) {
  if (block.size < 0 || block.size > total - done) {
    in.fail_at(block.at, "block of " + std::to_string(block.size) + " " + std::string(what) +
                             " disagrees with the total of " + std::to_string(total) + " (" +
                             std::to_string(done) + " in earlier blocks)");
  }
}

void check_total(const cursor& in, std::int64_t done, std::int64_t total, std::string_view what) {
  if (done != total) {
    in.fail("the blocks hold " + std::to_string(done) + " " + std::string(what) +
            ", but the header announces " + std::to_string(total));
  }
}

}  // namespace

void read_msh4_entities(cursor& in, raw_mesh& raw) {
  std::array<std::int64_t, 4> counts{};
  const std::size_t at = in.offset();
  if (in.binary()) {
    for (auto& count : counts) count = in.read_size("the entity counts");
  } else {
    const auto tokens = in.expect_tokens(4, "the entity counts");
    for (std::size_t d = 0; d < 4; ++d) counts[d] = in.to_int64(tokens[d], "entity count");
  }
  for (const std::int64_t count : counts) {
    in.plausible(count, in.binary() ? binary_entity_bytes : ascii_record_bytes, "entity count", at);
  }
  for (int d = 0; d < 4; ++d) {
    for (std::int64_t i = 0; i < counts[static_cast<std::size_t>(d)]; ++i) {
      int tag = 0;
      int physical = 0;
      const std::size_t entity_at = in.offset();
      const std::size_t skip = d == 0 ? 3 : 6;  // point coordinates or bounding box
      if (in.binary()) {
        tag = in.read<std::int32_t>("an entity");
        for (std::size_t k = 0; k < skip; ++k) in.read<double>("an entity");
        const std::int64_t physicals =
            in.plausible(in.read_size("an entity"), 4, "physical tag count", in.offset());
        for (std::int64_t k = 0; k < physicals; ++k) {
          const int value = in.read<std::int32_t>("an entity's physical tags");
          if (k == 0) physical = value;
        }
        if (d > 0) {
          const std::int64_t bounding =
              in.plausible(in.read_size("an entity"), 4, "bounding entity count", in.offset());
          for (std::int64_t k = 0; k < bounding; ++k) in.read<std::int32_t>("an entity");
        }
      } else {
        const auto tokens = in.expect_tokens(skip + 2, "an entity line", true);
        tag = in.to_int(tokens[0], "entity tag");
        const std::int64_t physicals = in.to_int64(tokens[skip + 1], "physical tag count");
        const std::size_t rest = tokens.size() - skip - 2;
        bool ok = physicals >= 0 && static_cast<std::uint64_t>(physicals) <= rest;
        if (ok && d == 0) ok = static_cast<std::size_t>(physicals) == rest;
        if (ok && d > 0) {
          const std::size_t b = skip + 2 + static_cast<std::size_t>(physicals);
          ok = b < tokens.size() && in.to_int64(tokens[b], "bounding entity count") ==
                                        static_cast<std::int64_t>(tokens.size() - b - 1);
        }
        if (!ok) {
          in.fail_at(in.offset_of(tokens[0]),
                     "entity " + std::to_string(tag) + ": its tag counts disagree with the " +
                         std::to_string(tokens.size()) + " values on its line");
        }
        if (physicals > 0) physical = in.to_int(tokens[skip + 2], "physical tag");
      }
      if (!raw.entity_physical.emplace(std::pair{d, tag}, physical).second) {
        in.fail_at(entity_at, "duplicate entity (dimension " + std::to_string(d) + ", tag " +
                                  std::to_string(tag) + ")");
      }
    }
  }
  in.expect_end("Entities");
}

void read_msh4_nodes(cursor& in, raw_mesh& raw) {
  const std::size_t at = in.offset();
  const auto [blocks, total, min_tag, max_tag] = section_header(in, "the $Nodes header");
  in.plausible(blocks, in.binary() ? msh4_binary_block_bytes : msh4_ascii_node_bytes,
               "node block count", at);
  in.plausible(total, in.binary() ? msh4_binary_node_bytes : msh4_ascii_node_bytes, "node count",
               at);
  const auto n = static_cast<std::size_t>(total);
  raw.node_tags.reserve(n);
  raw.coordinates.reserve(n);
  raw.node_offsets.reserve(n);
  std::int64_t done = 0;
  for (std::int64_t b = 0; b < blocks; ++b) {
    const block_header block = read_block_header(in, "a node block header");
    if (block.kind != 0 && block.kind != 1) {
      in.fail_at(block.at, "parametric flag " + std::to_string(block.kind) + " is not 0 or 1");
    }
    check_block_size(in, block, done, total, "nodes");
    for (std::int64_t i = 0; i < block.size; ++i) {
      std::size_t tag_at = in.offset();
      std::int64_t tag = 0;
      if (in.binary()) {
        tag = in.read_size("a node tag");
      } else {
        const auto tokens = in.expect_tokens(1, "a node tag line");
        tag_at = in.offset_of(tokens[0]);
        tag = in.to_int64(tokens[0], "node tag");
      }
      raw.node_tags.push_back(positive_tag(in, tag, "node", tag_at));
      raw.node_offsets.push_back(tag_at);
    }
    const std::size_t extra = block.kind == 1 ? static_cast<std::size_t>(block.dimension) : 0;
    for (std::int64_t i = 0; i < block.size; ++i) {
      std::array<double, 3> x{};
      if (in.binary()) {
        for (double& c : x) c = in.read_real("a node coordinate");
        for (std::size_t k = 0; k < extra; ++k) in.read<double>("a parametric coordinate");
      } else {
        const auto tokens = in.expect_tokens(3 + extra, "a node coordinate line");
        for (std::size_t k = 0; k < 3; ++k) x[k] = in.to_real(tokens[k], "node coordinate");
      }
      raw.coordinates.push_back(x);
    }
    done += block.size;
  }
  check_total(in, done, total, "nodes");
  in.expect_end("Nodes");
}

void read_msh4_elements(cursor& in, raw_mesh& raw) {
  const std::size_t at = in.offset();
  const auto [blocks, total, min_tag, max_tag] = section_header(in, "the $Elements header");
  in.plausible(blocks, in.binary() ? msh4_binary_block_bytes : ascii_record_bytes,
               "element block count", at);
  in.plausible(total, in.binary() ? 16 : ascii_record_bytes, "element count", at);
  const auto n = static_cast<std::size_t>(total);
  raw.reserve_elements(n);
  std::int64_t done = 0;
  for (std::int64_t b = 0; b < blocks; ++b) {
    const block_header block = read_block_header(in, "an element block header");
    const cell_type type = element_type(in, block.kind, block.at);
    if (dimension_of(type) != block.dimension) {
      in.fail_at(block.at, "element type " + std::to_string(block.kind) + " (" +
                               std::string(name_of(type)) + ") in a block of entity dimension " +
                               std::to_string(block.dimension));
    }
    check_block_size(in, block, done, total, "elements");
    const auto nodes = static_cast<std::size_t>(node_count(type));
    if (in.binary()) in.plausible(block.size, 8 * (1 + nodes), "element block size", in.offset());
    for (std::int64_t i = 0; i < block.size; ++i) {
      std::size_t element_at = in.offset();
      if (in.binary()) {
        const std::int64_t tag =
            positive_tag(in, in.read_size("an element"), "element", element_at);
        raw.add_element(tag, type, block.entity, element_at);
        for (std::size_t k = 0; k < nodes; ++k) {
          raw.element_nodes.push_back(in.read_size("an element's nodes"));
        }
      } else {
        const auto tokens = in.expect_tokens(1, "an element line", true);
        element_at = in.offset_of(tokens[0]);
        const std::int64_t tag =
            positive_tag(in, in.to_int64(tokens[0], "element tag"), "element", element_at);
        if (tokens.size() != 1 + nodes) {
          in.fail_at(element_at, "element " + std::to_string(tag) + " (" +
                                     std::string(name_of(type)) + ") has " +
                                     std::to_string(tokens.size() - 1) + " nodes, expected " +
                                     std::to_string(nodes) + " (wrong node count)");
        }
        raw.add_element(tag, type, block.entity, element_at);
        for (std::size_t k = 1; k < tokens.size(); ++k) {
          raw.element_nodes.push_back(in.to_int64(tokens[k], "node tag"));
        }
      }
      raw.end_element();
    }
    done += block.size;
  }
  check_total(in, done, total, "elements");
  raw.flush_elements();
  in.expect_end("Elements");
}

}  // namespace funcmesh::gmsh
