// libFuzzer target: restart's attribute checks (checkpoint/src/checkpoint_attributes.cpp)
// on attributes decoded from the input, one "name=value" per line (seeds in
// fuzz/corpus/checkpoint_attributes_fuzz). File attributes take the names the writer
// gives them (format_version, mesh_fingerprint, global_cells, step, time, dt, scheme,
// writer_ranks, fields, field_types); a name not given is a missing attribute, a value
// that does not parse is an unreadable one. "run.fingerprint=N", "run.cells=N" and
// "run.field=NAME TYPE" (repeatable) say what the run expects. "block_rows=0,5,9" is a
// format-2 block table, checked against writer_ranks and global_cells as restart checks
// it. A funcmesh::error is the expected refusal; a crash, another exception or an
// accepted mismatch is a finding.
#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <funcmesh/core/error.hpp>

#include "checkpoint_attributes.hpp"

namespace {

using funcmesh::detail::attribute_source;

const std::string who = "funcmesh::restart";
const std::string file = "fuzz.h5";
constexpr std::int64_t format_version = funcmesh::detail::checkpoint_format_version;
constexpr std::int64_t oldest_format = funcmesh::detail::oldest_checkpoint_format;

template <class T>
bool parse(std::string_view text, T& value) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

// The attributes as read_*_attribute would return them, or their errors.
class decoded_attributes final : public attribute_source {
 public:
  explicit decoded_attributes(const std::map<std::string, std::string, std::less<>>& values)
      : values_(values) {}
  std::int64_t integer(const char* name) const override {
    std::int64_t value = 0;
    if (!parse(find(name), value)) unreadable(name);
    return value;
  }
  double real(const char* name) const override {
    double value = 0;
    if (!parse(find(name), value)) unreadable(name);
    return value;
  }
  // HDF5 fixed-length strings end at their first NUL (read_string_attribute).
  std::string text(const char* name) const override {
    const std::string_view value = find(name);
    return std::string(value.substr(0, value.find('\0')));
  }

 private:
  std::string_view find(const char* name) const {
    const auto it = values_.find(std::string_view(name));
    if (it == values_.end()) {
      throw funcmesh::error(who + ": " + file + ": no attribute '" + name + "'");
    }
    return it->second;
  }
  [[noreturn]] static void unreadable(const char* name) {
    throw funcmesh::error(who + ": " + file + ": attribute '" + name + "': H5Aread failed");
  }
  const std::map<std::string, std::string, std::less<>>& values_;
};

[[noreturn]] void broken(const char* what) {
  std::fprintf(stderr, "checkpoint_attributes_fuzz: accepted a checkpoint although %s\n", what);
  std::abort();
}

std::vector<std::string> comma_list(std::string_view text) {
  std::vector<std::string> parts;
  while (true) {
    const std::size_t comma = text.find(',');
    parts.emplace_back(text.substr(0, comma));
    if (comma == std::string_view::npos) return parts;
    text.remove_prefix(comma + 1);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::map<std::string, std::string, std::less<>> values;
  funcmesh::detail::checkpoint_expectation run;
  run.format_version = format_version;
  while (!input.empty()) {
    const std::size_t end = std::min(input.find('\n'), input.size());
    const std::string_view line = input.substr(0, end);
    input.remove_prefix(std::min(end + 1, input.size()));
    const std::size_t equals = line.find('=');
    if (equals == std::string_view::npos) continue;
    const std::string_view key = line.substr(0, equals), value = line.substr(equals + 1);
    if (key == "run.fingerprint") {
      parse(value, run.mesh_fingerprint);
    } else if (key == "run.cells") {
      parse(value, run.global_cells);
    } else if (key == "run.field") {
      const std::size_t space = value.rfind(' ');
      funcmesh::detail::field_signature field{std::string(value.substr(0, space)), ""};
      if (space != std::string_view::npos) field.type = value.substr(space + 1);
      // A run's fields have distinct names: the writer makes one dataset per name.
      if (std::ranges::none_of(run.fields, [&](const auto& f) { return f.name == field.name; })) {
        run.fields.push_back(std::move(field));
      }
    } else {
      values[std::string(key)] = std::string(value);
    }
  }
  const decoded_attributes attributes(values);
  try {
    const auto header = funcmesh::detail::check_attributes(attributes, run, who, file);
    // Accepted: the file must be this format and mesh, and list exactly the run's fields.
    const std::int64_t version = attributes.integer("format_version");
    if (version < oldest_format || version > format_version) broken("of another format");
    if (header.format_version != version) broken("the header's version differs");
    if (static_cast<std::uint64_t>(attributes.integer("mesh_fingerprint")) !=
        run.mesh_fingerprint) {
      broken("of another mesh");
    }
    const auto names = comma_list(attributes.text("fields"));
    const auto types = comma_list(attributes.text("field_types"));
    if (names.size() != run.fields.size() || types.size() != names.size()) {
      broken("its field count differs");
    }
    for (const auto& f : run.fields) {
      const auto at = std::ranges::find(names, f.name);
      if (at == names.end()) broken("a field is missing");
      if (std::ranges::count(names, f.name) != 1) broken("a field is listed twice");
      if (types[static_cast<std::size_t>(at - names.begin())] != f.type) broken("a type differs");
    }
    if (header.step != attributes.integer("step") || header.scheme != attributes.text("scheme")) {
      broken("the header differs from the attributes");
    }
    if (version == 2 && values.contains("block_rows")) {
      std::vector<std::int64_t> rows;
      for (const auto& part : comma_list(values["block_rows"])) {
        std::int64_t row = 0;
        if (!parse(std::string_view(part), row)) throw funcmesh::error("unreadable block_rows");
        rows.push_back(row);
      }
      const std::int64_t writers = attributes.integer("writer_ranks");
      funcmesh::detail::check_block_rows(rows, writers, run.global_cells, who, file);
      // Accepted: one entry per writer and one more, from 0 to the run's cells, rising.
      if (writers < 1 || rows.size() != static_cast<std::size_t>(writers) + 1) {
        broken("its block table has the wrong length");
      }
      if (rows.front() != 0 || rows.back() != run.global_cells) broken("its blocks miss rows");
      if (!std::ranges::is_sorted(rows)) broken("its block table decreases");
    }
  } catch (const funcmesh::error&) {
    // The refusal restart reports (with the file and the reason).
  }
  return 0;
}
