#include <funcmesh/partition/mesh.hpp>

#include <funcmesh/core/error.hpp>

namespace funcmesh {

void element_block::add(cell_type type, std::span<const index_t> element_nodes, std::int64_t id,
                        int physical_id) {
  types.push_back(type);
  nodes.insert(nodes.end(), element_nodes.begin(), element_nodes.end());
  offsets.push_back(static_cast<index_t>(nodes.size()));
  ids.push_back(id);
  physical.push_back(physical_id);
}

void element_block::reserve(std::size_t elements, std::size_t element_nodes) {
  types.reserve(types.size() + elements);
  offsets.reserve(offsets.size() + elements);
  nodes.reserve(nodes.size() + element_nodes);
  ids.reserve(ids.size() + elements);
  physical.reserve(physical.size() + elements);
}

int mesh::physical_id(std::string_view name, int group_dimension) const {
  for (const physical_group& group : physical_groups) {
    if (group.dimension == group_dimension && group.name == name) return group.id;
  }
  return 0;
}

std::string mesh::physical_name(int id, int group_dimension) const {
  for (const physical_group& group : physical_groups) {
    if (group.dimension == group_dimension && group.id == id) return group.name;
  }
  return {};
}

}  // namespace funcmesh
