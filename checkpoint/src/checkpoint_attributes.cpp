// The attribute checks of restart (see checkpoint_attributes.hpp): pure, so that they can
// be fuzzed without HDF5 or MPI.
#include "checkpoint_attributes.hpp"

#include <algorithm>

#include <funcmesh/core/error.hpp>

namespace funcmesh::detail {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    parts.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return parts;
}

checkpoint_header check_attributes(const attribute_source& attributes,
                                   const checkpoint_expectation& run, const std::string& who,
                                   const std::filesystem::path& file) {
  const std::int64_t version = attributes.integer("format_version");
  if (version < oldest_checkpoint_format || version > run.format_version) {
    throw error(who + ": " + file.string() + ": format version " + std::to_string(version) +
                ", this funcmesh reads versions " + std::to_string(oldest_checkpoint_format) +
                " to " + std::to_string(run.format_version) +
                (version > run.format_version ? " (written by a newer funcmesh)" : ""));
  }
  const auto stored = static_cast<std::uint64_t>(attributes.integer("mesh_fingerprint"));
  const std::int64_t cells = attributes.integer("global_cells");
  if (run.fingerprint_later ? cells != run.global_cells : stored != run.mesh_fingerprint) {
    another_mesh(cells, run.global_cells, who, file);
  }
  const std::vector<std::string> names = split_list(attributes.text("fields"));
  const std::vector<std::string> types = split_list(attributes.text("field_types"));
  checkpoint_header header;
  header.format_version = version;
  header.mesh_fingerprint = stored;
  header.step = attributes.integer("step");
  header.t = attributes.real("time");
  header.dt = attributes.real("dt");
  header.scheme = attributes.text("scheme");
  std::string wanted, held;
  for (const auto& f : run.fields) {
    if (!wanted.empty()) wanted += ", ";
    wanted += f.name;
    wanted += ' ';
    wanted += f.type;
  }
  for (std::size_t k = 0; k < names.size() && k < types.size(); ++k) {
    if (!held.empty()) held += ", ";
    held += names[k];
    held += ' ';
    held += types[k];
  }
  // Same sizes first: only then may a name's position index the types.
  bool same = names.size() == run.fields.size() && types.size() == run.fields.size();
  for (const auto& f : run.fields) {
    const auto at = std::ranges::find(names, f.name);
    same =
        same && at != names.end() && types[static_cast<std::size_t>(at - names.begin())] == f.type;
  }
  if (!same) {
    throw error(who + ": " + file.string() + ": holds the fields " + held + "; this run restarts " +
                wanted);
  }
  return header;
}

void another_mesh(std::int64_t file_cells, std::int64_t run_cells, const std::string& who,
                  const std::filesystem::path& file) {
  throw error(who + ": " + file.string() +
              ": written for another mesh (its fingerprint differs from this mesh's; " +
              std::to_string(file_cells) + " cells there, " + std::to_string(run_cells) + " here)");
}

void check_block_rows(const std::vector<std::int64_t>& rows, std::int64_t writer_ranks,
                      std::int64_t global_cells, const std::string& who,
                      const std::filesystem::path& file) {
  const std::string where = who + ": " + file.string() + ": ";
  if (writer_ranks < 1 || rows.size() != static_cast<std::size_t>(writer_ranks) + 1) {
    throw error(where + "the block table has " + std::to_string(rows.size()) + " entries for " +
                std::to_string(writer_ranks) + " writer ranks (expected " + "writer_ranks + 1)");
  }
  if (rows.front() != 0 || rows.back() != global_cells) {
    throw error(where + "the block table spans rows " + std::to_string(rows.front()) + " to " +
                std::to_string(rows.back()) + ", not 0 to " + std::to_string(global_cells));
  }
  for (std::size_t b = 0; b + 1 < rows.size(); ++b) {
    if (rows[b + 1] < rows[b]) {
      throw error(where + "the block table decreases at block " + std::to_string(b));
    }
  }
}

}  // namespace funcmesh::detail
