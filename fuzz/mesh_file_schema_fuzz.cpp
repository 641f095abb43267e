// libFuzzer target: the mesh file's checks (comm/src/mesh_file/mesh_file_schema.cpp) on a
// file decoded from the input, one "key=value" per line (seeds in
// fuzz/corpus/mesh_file_schema_fuzz):
//   format, version, dimension, source, gmsh_tags, node_count, cell_count,
//   boundary_count          root attributes (a missing or unparsable one is absent)
//   cells.types, cells.offsets, cells.nodes, boundary.types, ..., groups.dimension
//                           arrays, space-separated integers
//   derive=1                datasets described from those arrays (and node_count)
//   dataset=PATH KIND VALUE_BYTES STORED_BYTES DIM...
//                           a dataset described (or redescribed) by hand; KIND is
//                           integer, real, string or other
//   ranks=P                 the rows checked in P even shares, as P ranks would (1..16)
// An accepted file must then hold what the reader relies on: offsets from 0 to the entry
// count, never decreasing, known types of the group's dimension spanning their node
// counts, node indices in range. A funcmesh::error is the expected refusal; a crash,
// another exception or an accepted violation is a finding. With MESH_FILE_FUZZ_VERBOSE
// set, each input's verdict is printed (to check what a seed exercises).
#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <funcmesh/core/error.hpp>
#include <funcmesh/partition/cell_type.hpp>
#include <funcmesh/partition/mesh_slab.hpp>

#include "mesh_file_schema.hpp"

namespace {

namespace fm = funcmesh;
using fm::detail::dataset_info;
using fm::detail::value_class;

const std::string file = "fuzz.h5";

template <class T>
bool parse(std::string_view text, T& value) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

template <class T>
std::optional<T> parsed(const std::map<std::string, std::string, std::less<>>& values,
                        std::string_view key) {
  const auto it = values.find(key);
  T value{};
  if (it == values.end() || !parse(it->second, value)) return std::nullopt;
  return value;
}

std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> result;
  while (!text.empty()) {
    const std::size_t space = text.find(' ');
    if (space != 0) result.push_back(text.substr(0, space));
    if (space == std::string_view::npos) break;
    text.remove_prefix(space + 1);
  }
  return result;
}

template <class T>
std::vector<T> numbers(const std::map<std::string, std::string, std::less<>>& values,
                       std::string_view key) {
  std::vector<T> result;
  const auto it = values.find(key);
  if (it == values.end()) return result;
  for (const std::string_view word : words(it->second)) {
    T value{};
    if (parse(word, value)) result.push_back(value);
  }
  return result;
}

[[noreturn]] void broken(const char* what) {
  std::fprintf(stderr, "mesh_file_schema_fuzz: accepted a file although %s\n", what);
  std::abort();
}

struct group_arrays {
  std::vector<std::int32_t> types;
  std::vector<std::int64_t> offsets, nodes;
};

// The row and entry checks of one group on `ranks` even shares, as read_mesh_file makes
// them; true when every rank accepted.
bool rows_accepted(std::string_view group, const group_arrays& a, fm::index_t rows,
                   fm::index_t entries, fm::index_t nodes, int dimension, int ranks) {
  if (static_cast<fm::index_t>(a.types.size()) != rows ||
      static_cast<fm::index_t>(a.offsets.size()) != rows + 1 ||
      static_cast<fm::index_t>(a.nodes.size()) != entries) {
    return false;  // the metadata describes other arrays than the input gives
  }
  for (int r = 0; r < ranks; ++r) {
    const fm::index_t first = fm::share_begin(rows, ranks, r);
    const fm::index_t last = fm::share_begin(rows, ranks, r + 1);
    fm::detail::check_element_rows(
        group, std::span(a.types).subspan(static_cast<std::size_t>(first), last - first),
        std::span(a.offsets).subspan(static_cast<std::size_t>(first), last - first + 1), first,
        rows, entries, dimension, file);
  }
  for (int r = 0; r < ranks; ++r) {
    const auto first = static_cast<std::size_t>(fm::share_begin(rows, ranks, r));
    const auto last = static_cast<std::size_t>(fm::share_begin(rows, ranks, r + 1));
    const auto begin = static_cast<std::size_t>(a.offsets[first]);
    const auto end = static_cast<std::size_t>(a.offsets[last]);
    fm::detail::check_node_entries(group, std::span(a.nodes).subspan(begin, end - begin),
                                   a.offsets[first], nodes, file);
  }
  return true;
}

void check_invariants(const group_arrays& a, fm::index_t nodes, int dimension) {
  if (a.offsets.front() != 0) broken("its offsets do not start at 0");
  if (a.offsets.back() != static_cast<std::int64_t>(a.nodes.size())) {
    broken("its offsets do not end at the entry count");
  }
  for (std::size_t k = 0; k < a.types.size(); ++k) {
    fm::cell_type type{};
    if (!fm::from_gmsh_type(a.types[k], type)) broken("an element type is unknown");
    if (fm::dimension_of(type) != dimension) broken("an element has the wrong dimension");
    if (a.offsets[k + 1] - a.offsets[k] != fm::node_count(type)) {
      broken("an element spans another node count");
    }
  }
  for (const std::int64_t n : a.nodes) {
    if (n < 0 || n >= nodes) broken("a node index is out of range");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::map<std::string, std::string, std::less<>> values;
  std::vector<std::string> datasets;
  while (!input.empty()) {
    const std::size_t end = std::min(input.find('\n'), input.size());
    const std::string_view line = input.substr(0, end);
    input.remove_prefix(std::min(end + 1, input.size()));
    const std::size_t equals = line.find('=');
    if (equals == std::string_view::npos) continue;
    const std::string_view key = line.substr(0, equals), value = line.substr(equals + 1);
    if (key == "dataset") {
      datasets.emplace_back(value);
    } else {
      values[std::string(key)] = std::string(value);
    }
  }
  fm::detail::mesh_file_metadata metadata;
  if (const auto it = values.find(std::string_view("format")); it != values.end()) {
    metadata.format = it->second;
  }
  if (const auto it = values.find(std::string_view("source")); it != values.end()) {
    metadata.source = it->second;
  }
  metadata.version = parsed<std::int64_t>(values, "version");
  metadata.dimension = parsed<std::int64_t>(values, "dimension");
  metadata.gmsh_tags = parsed<std::int64_t>(values, "gmsh_tags");
  metadata.node_count = parsed<std::int64_t>(values, "node_count");
  metadata.cell_count = parsed<std::int64_t>(values, "cell_count");
  metadata.boundary_count = parsed<std::int64_t>(values, "boundary_count");

  group_arrays groups[2];
  const char* names[2] = {"cells", "boundary"};
  for (int g = 0; g < 2; ++g) {
    const std::string at = names[g];
    groups[g].types = numbers<std::int32_t>(values, at + ".types");
    groups[g].offsets = numbers<std::int64_t>(values, at + ".offsets");
    groups[g].nodes = numbers<std::int64_t>(values, at + ".nodes");
  }
  const std::vector<std::int32_t> group_dimensions =
      numbers<std::int32_t>(values, "groups.dimension");
  if (parsed<int>(values, "derive") == 1) {
    const auto row = [](value_class kind, std::uint64_t bytes, std::uint64_t n) {
      return dataset_info{kind, {n}, bytes, bytes * n};
    };
    const std::uint64_t n = static_cast<std::uint64_t>(std::max<std::int64_t>(
        0, std::min<std::int64_t>(metadata.node_count.value_or(0), 1 << 20)));
    metadata.datasets["/nodes/coordinates"] = {value_class::real, {n, 3}, 8, 24 * n};
    for (int g = 0; g < 2; ++g) {
      const std::string at = std::string("/") + names[g] + "/";
      const std::uint64_t rows = groups[g].types.size();
      metadata.datasets[at + "types"] = row(value_class::integer, 1, rows);
      metadata.datasets[at + "offsets"] = row(value_class::integer, 8, groups[g].offsets.size());
      metadata.datasets[at + "nodes"] = row(value_class::integer, 8, groups[g].nodes.size());
      metadata.datasets[at + "ids"] = row(value_class::integer, 8, rows);
      metadata.datasets[at + "physical"] = row(value_class::integer, 4, rows);
    }
    for (const char* leaf : {"dimension", "id", "name"}) {
      metadata.datasets[std::string("/physical_groups/") + leaf] =
          row(leaf == std::string_view("name") ? value_class::string : value_class::integer, 4,
              group_dimensions.size());
    }
  }
  for (const std::string& line : datasets) {
    const auto w = words(line);
    if (w.size() < 4) continue;
    dataset_info info;
    info.kind = w[1] == "integer"  ? value_class::integer
                : w[1] == "real"   ? value_class::real
                : w[1] == "string" ? value_class::string
                                   : value_class::other;
    if (!parse(w[2], info.value_bytes) || !parse(w[3], info.stored_bytes)) continue;
    for (std::size_t k = 4; k < w.size(); ++k) {
      std::uint64_t extent = 0;
      if (parse(w[k], extent)) info.dims.push_back(extent);
    }
    metadata.datasets[std::string(w[0])] = std::move(info);
  }
  const int ranks = std::clamp(parsed<int>(values, "ranks").value_or(1), 1, 16);

  try {
    const fm::detail::mesh_file_shape shape = fm::detail::check_metadata(metadata, file);
    if (shape.dimension != 2 && shape.dimension != 3) broken("its dimension is not 2 or 3");
    if (shape.nodes != metadata.node_count || shape.cells != metadata.cell_count ||
        shape.boundary != metadata.boundary_count) {
      broken("its counts differ from its datasets");
    }
    const fm::index_t rows[2] = {shape.cells, shape.boundary};
    const fm::index_t entries[2] = {shape.cell_entries, shape.boundary_entries};
    for (int g = 0; g < 2; ++g) {
      const int dimension = shape.dimension - g;
      if (rows_accepted(names[g], groups[g], rows[g], entries[g], shape.nodes, dimension, ranks)) {
        check_invariants(groups[g], shape.nodes, dimension);
      }
    }
    fm::detail::check_physical_groups(group_dimensions, file);
    for (const std::int32_t d : group_dimensions) {
      if (d < 0 || d > 3) broken("a physical group has a dimension outside [0, 3]");
    }
    if (std::getenv("MESH_FILE_FUZZ_VERBOSE") != nullptr) std::fprintf(stderr, "accepted\n");
  } catch (const fm::error& e) {
    // The refusal read_mesh_file reports (with the file, the dataset and the reason).
    if (std::getenv("MESH_FILE_FUZZ_VERBOSE") != nullptr) {
      std::fprintf(stderr, "refused: %s\n", e.what());
    }
  }
  return 0;
}
