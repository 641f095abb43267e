// Restart's rendezvous by global id, private to the module: the rows one rank read from a
// checkpoint (any blocks, whichever rank count wrote them) go to the ranks that own those
// cells now, through a directory of global ids spread evenly over the ranks.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <funcmesh/comm/detail/raw_vector.hpp>
#include <funcmesh/comm/distributed_layout.hpp>

namespace funcmesh::detail {

// Collective over the layout. `ids`: the global ids of the rows this rank read; `columns`:
// per field, those rows' values (components[f] doubles a row). Returns per field the values
// of this rank's owned cells in local order. A global id out of range, read twice, or
// missing throws an agreed_error naming `file`, on every rank.
std::vector<setup_detail::raw_vector<double>> place_by_global_id(
    const distributed_layout& layout, std::span<const std::int64_t> ids,
    const std::vector<setup_detail::raw_vector<double>>& columns,
    const std::vector<int>& components, const std::string& who, const std::filesystem::path& file);

}  // namespace funcmesh::detail
