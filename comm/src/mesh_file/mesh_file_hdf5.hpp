// The HDF5 side of the mesh file, private to comm: owning handles, errors that name the
// file and the call (detail/hdf5_handle.hpp, shared with checkpoints), attributes and
// dataset descriptions for the schema checks.
#pragma once

#include <funcmesh/comm/detail/hdf5_handle.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "mesh_file_schema.hpp"

namespace funcmesh::mesh_file_detail {

using h5_handle = funcmesh::detail::hdf5_handle;
using funcmesh::detail::checked;

// HDF5 prints its error stack by default; funcmesh's messages say what failed.
void silence_hdf5_errors();

void write_int_attribute(hid_t object, const char* name, hid_t file_type, std::int64_t value,
                         std::string_view who, const std::filesystem::path& file);
void write_string_attribute(hid_t object, const char* name, std::string_view value,
                            std::string_view who, const std::filesystem::path& file);
// nullopt when `object` has no attribute `name`; throws when it is not one integer (or one
// string, fixed or variable length).
std::optional<std::int64_t> read_int_attribute(hid_t object, const char* name, std::string_view who,
                                               const std::filesystem::path& file);
std::optional<std::string> read_string_attribute(hid_t object, const char* name,
                                                 std::string_view who,
                                                 const std::filesystem::path& file);

// Whether every link of `path` ("/cells/offsets") exists below `root`.
bool path_exists(hid_t root, const std::string& path);
// The type class and extent of an open dataset.
detail::dataset_info describe(hid_t dataset, std::string_view who,
                              const std::filesystem::path& file, const std::string& path);

// A fixed-length, NUL-padded string type of `size` bytes (at least 1).
h5_handle string_type(std::size_t size, std::string_view who, const std::filesystem::path& file);

}  // namespace funcmesh::mesh_file_detail
