// What the MSH 2 and MSH 4 section parsers collect, before it becomes a funcmesh::mesh:
// sections may come in any order, so node references and physical groups are resolved
// only once the whole file is read (assemble), with file offsets kept for the errors.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/partition/cell_type.hpp>
#include <funcmesh/partition/mesh.hpp>

#include "cursor.hpp"

namespace funcmesh::gmsh {

struct raw_mesh {
  int version = 0;  // 2 (MSH 2.2) or 4 (MSH 4.1)

  bool has_nodes = false;
  std::vector<std::int64_t> node_tags;
  std::vector<std::array<double, 3>> coordinates;
  std::vector<std::size_t> node_offsets;  // where each node is in the file

  bool has_elements = false;
  std::size_t elements_offset = 0;
  std::vector<std::int64_t> element_tags;
  std::vector<cell_type> element_types;
  std::vector<int> element_groups;  // MSH 2: the physical tag; MSH 4: the entity tag
  std::vector<index_t> element_starts{0};
  std::vector<std::int64_t> element_nodes;  // node tags
  std::vector<std::size_t> element_offsets;

  bool has_entities = false;
  std::map<std::pair<int, int>, int> entity_physical;  // (dimension, entity) -> physical

  bool has_names = false;
  std::vector<physical_group> names;

  void add_element(std::int64_t tag, cell_type type, int group, std::size_t offset) {
    element_tags.push_back(tag);
    element_types.push_back(type);
    element_groups.push_back(group);
    element_offsets.push_back(offset);
  }
  void end_element() {
    element_starts.push_back(static_cast<index_t>(element_nodes.size()));
    if (flush_every != 0 && element_tags.size() >= flush_every) flush_elements();
  }

  // Streaming (read_gmsh_blocks): once `flush_every` elements are held (0: never), they
  // are handed to `flush` and dropped, so that no $Elements section is held whole. The
  // parsers reserve through reserve_elements and flush the rest at the section's end.
  std::size_t flush_every = 0;
  std::function<void(raw_mesh&)> flush;
  // The second streaming pass reads the nodes no more (the first one kept them).
  bool skip_nodes = false;
  void reserve_elements(std::size_t count) {
    const std::size_t n = flush_every == 0 ? count : std::min(count, flush_every);
    element_tags.reserve(n);
    element_types.reserve(n);
    element_groups.reserve(n);
    element_offsets.reserve(n);
    element_starts.reserve(n + 1);
  }
  void flush_elements() {
    if (flush_every == 0 || element_tags.empty()) return;
    flush(*this);
    element_tags.clear();
    element_types.clear();
    element_groups.clear();
    element_offsets.clear();
    element_nodes.clear();
    element_starts.assign(1, 0);
  }
};

// Section parsers; the cursor stands just after the section's header line and is left
// just after its $End line.
void read_msh2_nodes(cursor& in, raw_mesh& raw);
void read_msh2_elements(cursor& in, raw_mesh& raw);
void read_msh4_entities(cursor& in, raw_mesh& raw);
void read_msh4_nodes(cursor& in, raw_mesh& raw);
void read_msh4_elements(cursor& in, raw_mesh& raw);

// The section loop: every section of the file into raw (any order, unknown ones skipped).
void read_sections(cursor& in, raw_mesh& raw);

// Checks tags and references and builds the mesh.
mesh assemble(raw_mesh&& raw, const cursor& in);

// Node tag -> 0-based index, from the nodes' tags (a repeated tag is an error naming its
// later occurrence): a direct table when tags are dense enough, else a binary search.
class node_lookup {
 public:
  node_lookup(const cursor& in, const raw_mesh& raw);
  index_t find(std::int64_t tag) const;

 private:
  std::vector<std::pair<std::int64_t, index_t>> sorted_;
  std::vector<index_t> table_;
};

// Appends the used (dimension, id) groups that have no name, ascending, as unnamed groups.
void add_unnamed_groups(std::vector<physical_group>& groups,
                        const std::set<std::pair<int, int>>& used);

// The top dimension of these element types, refused below 2 (the $Elements section's
// offset in the error).
int checked_dimension(const cursor& in, int dimension, std::size_t elements_offset);

// Raw element e with its nodes as 0-based indices (an undefined node is an error naming the
// element) and its physical group (MSH 4: its entity's, from `entity_physical`); false for
// an element more than one dimension below `dimension` (dropped).
bool resolve_element(const cursor& in, const raw_mesh& raw,
                     const std::map<std::pair<int, int>, int>& entity_physical,
                     const node_lookup& nodes, int dimension, std::size_t e,
                     std::vector<index_t>& element_nodes, int& physical);

// An element type the readers accept, with the error for the others.
cell_type element_type(const cursor& in, int gmsh, std::size_t at);
// A node or element tag: positive.
std::int64_t positive_tag(const cursor& in, std::int64_t tag, std::string_view what,
                          std::size_t at);

}  // namespace funcmesh::gmsh
