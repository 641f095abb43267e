// MSH 2.2 $Nodes and $Elements, ASCII and binary. Counts are on a text line in both
// forms; binary records use 4-byte ints and 8-byte doubles.
#include <string>

#include "raw_mesh.hpp"

namespace funcmesh::gmsh {

namespace {

// Smallest bytes a record can take, to bound counts by the file size before reserving.
constexpr std::size_t msh2_ascii_node_bytes = 8;    // "1 0 0 0\n"
constexpr std::size_t msh2_binary_node_bytes = 28;  // int + 3 doubles
constexpr std::size_t element_bytes = 8;            // "1 15 0 1\n"; binary: tag + 1 node

std::int64_t count_line(cursor& in, std::string_view what, std::size_t min_bytes) {
  const auto tokens = in.expect_tokens(1, "the " + std::string(what) + " line");
  const std::size_t at = in.offset_of(tokens[0]);
  return in.plausible(in.to_int64(tokens[0], what), min_bytes, what, at);
}

}  // namespace

void read_msh2_nodes(cursor& in, raw_mesh& raw) {
  const std::int64_t count =
      count_line(in, "node count", in.binary() ? msh2_binary_node_bytes : msh2_ascii_node_bytes);
  const auto n = static_cast<std::size_t>(count);
  raw.node_tags.reserve(n);
  raw.coordinates.reserve(n);
  raw.node_offsets.reserve(n);
  for (std::int64_t i = 0; i < count; ++i) {
    std::size_t at = in.offset();
    std::int64_t tag = 0;
    std::array<double, 3> x{};
    if (in.binary()) {
      tag = in.read<std::int32_t>("a node tag");
      for (double& c : x) c = in.read_real("a node coordinate");
    } else {
      const auto tokens = in.expect_tokens(4, "a node line (tag x y z)");
      at = in.offset_of(tokens[0]);
      tag = in.to_int64(tokens[0], "node tag");
      for (std::size_t k = 0; k < 3; ++k) x[k] = in.to_real(tokens[k + 1], "node coordinate");
    }
    raw.node_tags.push_back(positive_tag(in, tag, "node", at));
    raw.coordinates.push_back(x);
    raw.node_offsets.push_back(at);
  }
  in.expect_end("Nodes");
}

void read_msh2_elements(cursor& in, raw_mesh& raw) {
  const std::int64_t count = count_line(in, "element count", element_bytes);
  const auto n = static_cast<std::size_t>(count);
  raw.reserve_elements(n);
  if (!in.binary()) {
    for (std::int64_t i = 0; i < count; ++i) {
      const auto tokens = in.expect_tokens(3, "an element line", true);
      const std::size_t at = in.offset_of(tokens[0]);
      const std::int64_t tag =
          positive_tag(in, in.to_int64(tokens[0], "element tag"), "element", at);
      const cell_type type = element_type(in, in.to_int(tokens[1], "element type"), at);
      const std::int64_t tag_count = in.to_int64(tokens[2], "number of tags");
      const auto nodes = static_cast<std::size_t>(node_count(type));
      if (tag_count < 0 || static_cast<std::uint64_t>(tag_count) > tokens.size() - 3 ||
          tokens.size() - 3 - static_cast<std::size_t>(tag_count) != nodes) {
        in.fail_at(at, "element " + std::to_string(tag) + " (" + std::string(name_of(type)) +
                           ") has " + std::to_string(tokens.size()) + " values, expected 3 + " +
                           std::to_string(tag_count) + " tags + " + std::to_string(nodes) +
                           " nodes (wrong node count)");
      }
      const auto first_node = 3 + static_cast<std::size_t>(tag_count);
      const int physical = tag_count > 0 ? in.to_int(tokens[3], "physical tag") : 0;
      raw.add_element(tag, type, physical, at);
      for (std::size_t k = first_node; k < tokens.size(); ++k) {
        raw.element_nodes.push_back(in.to_int64(tokens[k], "node tag"));
      }
      raw.end_element();
    }
  } else {
    std::int64_t done = 0;
    while (done < count) {
      const std::size_t at = in.offset();
      const int gmsh = in.read<std::int32_t>("an element block header");
      const cell_type type = element_type(in, gmsh, at);
      const std::int64_t in_block = in.read<std::int32_t>("an element block header");
      const std::int64_t tag_count = in.read<std::int32_t>("an element block header");
      if (in_block < 0 || in_block > count - done) {
        in.fail_at(at, "element block of " + std::to_string(in_block) +
                           " elements disagrees with the total of " + std::to_string(count) + " (" +
                           std::to_string(done) + " read before it)");
      }
      if (tag_count < 0) in.fail_at(at, "negative number of tags " + std::to_string(tag_count));
      const auto nodes = static_cast<std::size_t>(node_count(type));
      in.plausible(in_block, 4 * (1 + static_cast<std::size_t>(tag_count) + nodes),
                   "element block size", in.offset());
      for (std::int64_t i = 0; i < in_block; ++i) {
        const std::size_t element_at = in.offset();
        const std::int64_t tag = in.read<std::int32_t>("an element");
        positive_tag(in, tag, "element", element_at);
        int physical = 0;
        for (std::int64_t k = 0; k < tag_count; ++k) {
          const int value = in.read<std::int32_t>("an element's tags");
          if (k == 0) physical = value;
        }
        raw.add_element(tag, type, physical, element_at);
        for (std::size_t k = 0; k < nodes; ++k) {
          raw.element_nodes.push_back(in.read<std::int32_t>("an element's nodes"));
        }
        raw.end_element();
      }
      done += in_block;
    }
  }
  raw.flush_elements();
  in.expect_end("Elements");
}

}  // namespace funcmesh::gmsh
