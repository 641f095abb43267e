// The HDF5 side of checkpoints, private to the module: owning handles, errors that name
// the file and the call, attributes, and the selection of a rank's owned rows by global id.
#pragma once

#include <hdf5.h>
#include <mpi.h>
#include <funcmesh/comm/detail/hdf5_handle.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/core/error.hpp>

#include "checkpoint_attributes.hpp"

namespace funcmesh::detail {

// Opens `file` read-only on every rank of `comm` through the MPI-IO driver (collective:
// format 1's reading).
hdf5_handle open_parallel(const std::filesystem::path& file, MPI_Comm comm, const std::string& who);
// Opens `file` read-only on this rank alone (rank 0 reads a format-2 file's metadata).
hdf5_handle open_serial(const std::filesystem::path& file, const std::string& who);

void write_attribute(hid_t file, const char* name, std::int64_t value, const std::string& who,
                     const std::filesystem::path& path);
void write_attribute(hid_t file, const char* name, double value, const std::string& who,
                     const std::filesystem::path& path);
void write_attribute(hid_t file, const char* name, const std::string& value, const std::string& who,
                     const std::filesystem::path& path);
std::int64_t read_int_attribute(hid_t file, const char* name, const std::string& who,
                                const std::filesystem::path& path);
double read_double_attribute(hid_t file, const char* name, const std::string& who,
                             const std::filesystem::path& path);
std::string read_string_attribute(hid_t file, const char* name, const std::string& who,
                                  const std::filesystem::path& path);

// This rank's owned cells as rows of a (global cells x components) dataset: the file
// selection (runs of consecutive global ids, hyperslabs) and, for each row in the order
// the selection lists them (ascending global id), the owned cell it is.
struct owned_rows {
  std::vector<index_t> cells;   // local owned cell per selected row, ascending global id
  std::vector<hsize_t> global;  // its global id
  std::vector<std::pair<hsize_t, hsize_t>> runs;  // (first global id, count)
};
owned_rows owned_rows_of(const distributed_layout& layout);
// A copy of `space` with `rows` (all components) selected, or none; row g of the selection
// is row g - first of the space (first: 0 for the file's dataspace).
hdf5_handle rows_selected(hid_t space, const owned_rows& rows, int components,
                          const std::string& who, const std::filesystem::path& path,
                          hsize_t first = 0);

// The memory side of a rank's rows: `rows` packed rows of `components` doubles (an empty
// selection for none).
hdf5_handle packed_space(std::size_t rows, int components, const std::string& who,
                         const std::filesystem::path& file);
// Collective MPI-IO transfers (filtered datasets are written only collectively).
hdf5_handle collective_transfer(const std::string& who, const std::filesystem::path& file);

// "f64" or "f64x3": a field's type as the file names it.
std::string field_type(int components);

}  // namespace funcmesh::detail
