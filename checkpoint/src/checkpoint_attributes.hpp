// The checks on a checkpoint's root attributes (format version, mesh fingerprint, field
// names and types) and the step they record, without HDF5 or MPI: restart reads the
// attributes from the file, the fuzzer (fuzz/checkpoint_attributes_fuzz.cpp) from bytes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace funcmesh::detail {

// The format a checkpoint file says it has (its root's format_version attribute): 2, the
// blocks each rank wrote in its own order with their global ids, is written; 1, rows in
// global id order, is still read.
inline constexpr int checkpoint_format_version = 2;
inline constexpr int oldest_checkpoint_format = 1;

// The attributes of one checkpoint, read by name when a check needs them, so that the
// first thing wrong is the one reported. A missing or unreadable attribute throws
// funcmesh::error naming the file and the attribute.
class attribute_source {
 public:
  virtual std::int64_t integer(const char* name) const = 0;
  virtual double real(const char* name) const = 0;
  virtual std::string text(const char* name) const = 0;

 protected:
  ~attribute_source() = default;
};

// A field the run restarts: its name and its type as the file names it ("f64", "f64x3").
struct field_signature {
  std::string name;
  std::string type;
};

// What the run needs the checkpoint to be.
struct checkpoint_expectation {
  std::int64_t format_version = 0;  // the newest read; down to oldest_checkpoint_format
  std::uint64_t mesh_fingerprint = 0;
  std::int64_t global_cells = 0;  // this mesh's, for the message of a fingerprint mismatch
  std::vector<field_signature> fields;
  // true: the fingerprint is compared later (restart computes it while it reads); only
  // the cell count is checked now, with the same message.
  bool fingerprint_later = false;
};

// The step a checkpoint records, once its attributes passed.
struct checkpoint_header {
  std::int64_t format_version = 0;
  std::uint64_t mesh_fingerprint = 0;  // the file's
  std::int64_t step = 0;
  double t = 0.0;
  double dt = 0.0;
  std::string scheme;
};

// Throws funcmesh::error("<who>: <file>: <what is wrong>") unless the checkpoint has a
// format version this funcmesh reads and the expected mesh fingerprint, and holds exactly
// the run's fields (by name and type, in any order).
checkpoint_header check_attributes(const attribute_source& attributes,
                                   const checkpoint_expectation& run, const std::string& who,
                                   const std::filesystem::path& file);

// "a,b,c" -> {a, b, c}: the attributes `fields` and `field_types` join names with commas.
std::vector<std::string> split_list(const std::string& text);

// The refusal of a checkpoint written for another mesh, naming both cell counts.
[[noreturn]] void another_mesh(std::int64_t file_cells, std::int64_t run_cells,
                               const std::string& who, const std::filesystem::path& file);

// Format 2's block table: `rows` (writer_ranks + 1 entries) must start at 0, never
// decrease and end at global_cells. Throws funcmesh::error("<who>: <file>: ...").
void check_block_rows(const std::vector<std::int64_t>& rows, std::int64_t writer_ranks,
                      std::int64_t global_cells, const std::string& who,
                      const std::filesystem::path& file);

}  // namespace funcmesh::detail
