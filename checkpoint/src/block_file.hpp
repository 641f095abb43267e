// Checkpoint format 2, private to the module: each writer rank's owned cells as one block
// of rows, in the rank's own order, beside their global ids, in contiguous HDF5 datasets
// that rank 0 creates (metadata only) and every rank fills with pwrite at the datasets'
// offsets; a table of the blocks' rows and checksums. docs/checkpoint.md has the layout.
#pragma once

#include <hdf5.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "checkpoint_attributes.hpp"
#include "hdf5_file.hpp"

namespace funcmesh::detail {

// What a format-2 file holds besides the rows: its root attributes and the block table.
struct block_file_contents {
  std::int64_t step = 0;
  double t = 0.0, dt = 0.0;
  std::string scheme;
  std::uint64_t fingerprint = 0;
  std::int64_t global_cells = 0;
  std::vector<std::string> names;        // the fields, in the order written
  std::vector<int> components;           // doubles per cell of each
  std::vector<std::int64_t> block_rows;  // writer ranks + 1: block b is rows [b], [b + 1])
  std::vector<std::uint64_t> checksums;  // per block: of its global ids, then of each field
};

// A new file (truncated) for serial HDF5, its objects of 64 KiB or more on 4 KiB
// boundaries (the ranks' pwrites then start on a page).
hdf5_handle create_aligned_file(const std::filesystem::path& file, const std::string& who);
// A contiguous dataset (rows x columns; 1-D when columns is 1), its space allocated now and
// never filled: the ranks pwrite it. Returns its byte offset in the file.
std::uint64_t allocated_dataset(hid_t root, const char* name, hid_t type, hsize_t rows,
                                hsize_t columns, const std::string& who,
                                const std::filesystem::path& file);

// Rank 0 alone: creates (truncates) `file` with serial HDF5: the attributes, the block
// table, and the datasets global_id and one per field, contiguous, allocated and never
// filled. Returns each dataset's byte offset in the file, global_id's first. Throws
// funcmesh::error naming the file and the call.
std::vector<std::uint64_t> create_block_file(const std::filesystem::path& file,
                                             const block_file_contents& contents,
                                             const std::string& who);

// One rank's bytes of one dataset, and where they go in the file.
struct block_piece {
  const void* data = nullptr;
  std::size_t bytes = 0;
  std::uint64_t offset = 0;
};
// pwrites the pieces into `file` (which exists) and fsyncs it. No MPI, no HDF5: an
// asynchronous checkpoint runs it on its own thread. Returns "" or what failed.
// `injectable`: a failure injected by fail_next_checkpoint_write_for_testing lands here
// (a checkpoint's rows), not in the writing of the checkpoints' mesh.
std::string write_block_pieces(const std::filesystem::path& file,
                               const std::vector<block_piece>& pieces, const std::string& who,
                               bool injectable = true);

// fsyncs `path` (a file, or a directory after a rename in it). Throws funcmesh::error
// "<who>: <path>: fsync failed: <reason>".
void sync_path(const std::filesystem::path& path, const std::string& who);

// What every rank needs to read a format-2 file, in the run's field order.
struct block_read_plan {
  checkpoint_header header;
  std::vector<std::int64_t> block_rows;  // writer ranks + 1
  // Per block, fields + 1 checksums: of the global ids, then of the run's fields in order.
  std::vector<std::uint64_t> checksums;
  std::vector<std::uint64_t> offsets;  // global_id's, then the run's fields'
};
// Rank 0 alone, on a file open with open_serial whose attributes passed (version 2):
// reads and checks the block table and the datasets' shapes, types and places. Throws
// funcmesh::error naming the file and what is wrong.
block_read_plan read_block_plan(hid_t root, const std::filesystem::path& file,
                                const checkpoint_header& header, const checkpoint_expectation& run,
                                const std::string& who);

// preads `bytes` at `offset` of `file` into `into`; "" or what failed (a short read: the
// file is truncated).
std::string read_block_bytes(const std::filesystem::path& file, std::uint64_t offset,
                             std::size_t bytes, void* into, const std::string& who);

}  // namespace funcmesh::detail
