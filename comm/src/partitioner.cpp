// Partitioner names, as --partitioner takes them.
#include <funcmesh/comm/partitioner.hpp>

#include <funcmesh/app/mesh_options.hpp>
#include <funcmesh/core/error.hpp>

namespace funcmesh {

const std::vector<std::string>& partitioner_names() { return app::partitioner_names(); }

std::string_view name_of(partitioner which) {
  return partitioner_names()[static_cast<std::size_t>(which)];
}

partitioner partitioner_named(std::string_view name) {
  const auto& names = partitioner_names();
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (names[k] == name) return static_cast<partitioner>(k);
  }
  throw error("unknown partitioner \"" + std::string(name) +
              "\": choose auto, metis, parmetis, ptscotch or hilbert");
}

}  // namespace funcmesh
