// restart: reads a checkpoint back into distributed functions on any rank count (each rank
// its owned cells, by global id), after verifying the file's format, mesh fingerprint,
// field list and checksums; "latest" takes the newest valid one in a directory.
#pragma once

#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include <funcmesh/checkpoint/checkpoint_field.hpp>
#include <funcmesh/checkpoint/checkpoint_writer.hpp>
#include <funcmesh/comm/distributed_layout.hpp>

namespace funcmesh {

namespace detail {
checkpoint_step restart_records(const distributed_layout& layout, const std::filesystem::path& from,
                                const std::vector<checkpoint_field>& fields);
}  // namespace detail

// Collective. `from`: a checkpoint file, or a directory to take the newest valid one in
// (a refused newer one is named on rank 0's stderr, with why). The fields must be those
// written, by name and type, in any order. A file that is corrupt, truncated, of another
// mesh or another field list is refused with an agreed_error naming it and the reason, on
// every rank together; nothing is written into the fields then.
template <class... F>
checkpoint_step restart(const distributed_layout& layout, const std::filesystem::path& from,
                        F&... fields) {
  auto accesses = std::make_tuple(fields.write()...);  // held while the file is read
  std::vector<detail::checkpoint_field> records;
  std::apply(
      [&](const auto&... access) { (records.push_back(detail::record_of(fields, access)), ...); },
      accesses);
  return detail::restart_records(layout, from, records);
}

}  // namespace funcmesh
