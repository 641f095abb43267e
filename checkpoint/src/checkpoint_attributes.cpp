// The attribute checks of restart (see checkpoint_attributes.hpp): pure, so that they can
// be fuzzed without HDF5 or MPI.
#include "checkpoint_attributes.hpp"

#include <algorithm>

#include <funcmesh/core/error.hpp>

namespace funcmesh::detail {

namespace {

// "a,b,c" -> {a, b, c}; the writer joins names with commas.
std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    parts.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return parts;
}

}  // namespace

checkpoint_header check_attributes(const attribute_source& attributes,
                                   const checkpoint_expectation& run, const std::string& who,
                                   const std::filesystem::path& file) {
  const std::int64_t version = attributes.integer("format_version");
  if (version != run.format_version) {
    throw error(who + ": " + file.string() + ": format version " + std::to_string(version) +
                ", this funcmesh reads " + std::to_string(run.format_version));
  }
  const auto stored = static_cast<std::uint64_t>(attributes.integer("mesh_fingerprint"));
  if (stored != run.mesh_fingerprint) {
    throw error(who + ": " + file.string() +
                ": written for another mesh (its fingerprint differs from this mesh's; " +
                std::to_string(attributes.integer("global_cells")) + " cells there, " +
                std::to_string(run.global_cells) + " here)");
  }
  const std::vector<std::string> names = split(attributes.text("fields"));
  const std::vector<std::string> types = split(attributes.text("field_types"));
  checkpoint_header header;
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

}  // namespace funcmesh::detail
