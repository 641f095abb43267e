// funcmesh::settings: docs/settings.md's table is the code's table (names, defaults,
// accepted values, meanings, in order), each variable's text parses as documented, and a
// refused one is an error naming the variable, its text and what is accepted.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <funcmesh/core/error.hpp>
#include <funcmesh/core/settings.hpp>
#include <funcmesh/memory/memory_error.hpp>

#include "../../common/test_paths.hpp"

namespace funcmesh::testing {
namespace {

// Backticks are markdown's, not the table's; runs of spaces are one.
std::string plain(std::string_view cell) {
  std::string out;
  for (char c : cell) {
    if (c == '`') continue;
    if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
    out += c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// The rows of the first table in `path` whose header starts with "variable".
std::vector<std::vector<std::string>> markdown_table(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] != '|') {
      if (inside) break;
      continue;
    }
    std::vector<std::string> cells;
    std::stringstream parts(line.substr(1));
    for (std::string cell; std::getline(parts, cell, '|');) cells.push_back(plain(cell));
    if (!inside) {
      inside = !cells.empty() && cells[0] == "variable";
      continue;
    }
    if (!cells.empty() && cells[0].starts_with("---")) continue;
    rows.push_back(cells);
  }
  return rows;
}

// The settings a map of variables gives (absent: unset).
settings read_from(const std::map<std::string, std::string>& variables) {
  return settings::read([&](const char* name) -> const char* {
    const auto found = variables.find(name);
    return found == variables.end() ? nullptr : found->second.c_str();
  });
}

TEST(settings, docs_settings_md_holds_the_codes_table) {
  const std::string path = (beside_executable(FUNCMESH_DOCS_DIR) / "settings.md").string();
  const auto documented = markdown_table(path);
  const auto table = settings::table();
  ASSERT_FALSE(documented.empty()) << path << " has no table headed | variable | ...";
  for (std::size_t k = 0; k < std::max(documented.size(), table.size()); ++k) {
    std::string expected = "(none)";
    if (k < table.size()) {
      const settings::row& r = table[k];
      expected = "| `" + std::string(r.name) + "` | " + std::string(r.fallback) + " | " +
                 std::string(r.accepted) + " | " + std::string(r.meaning) + " |";
    }
    const std::string found = k < documented.size() ? documented[k].at(0) : "(none)";
    ASSERT_LT(k, documented.size()) << "docs/settings.md lacks row " << k << ":\n" << expected;
    ASSERT_LT(k, table.size()) << "docs/settings.md lists " << found
                               << ", which settings.cpp's table lacks";
    ASSERT_EQ(documented[k].size(), 4u) << found;
    EXPECT_EQ(documented[k][0], table[k].name) << "row " << k << " should be:\n" << expected;
    EXPECT_EQ(documented[k][1], table[k].fallback) << "should be:\n" << expected;
    EXPECT_EQ(documented[k][2], table[k].accepted) << "should be:\n" << expected;
    EXPECT_EQ(documented[k][3], table[k].meaning) << "should be:\n" << expected;
  }
}

TEST(settings, unset_variables_give_the_tables_defaults) {
  const settings none = read_from({});
  const auto lines = none.describe();
  const auto table = settings::table();
  ASSERT_EQ(lines.size(), table.size());
  for (std::size_t k = 0; k < table.size(); ++k) {
    if (table[k].name == "FUNCMESH_CHECK_SPMD") continue;  // its default is the build's
    EXPECT_EQ(lines[k],
              std::string(table[k].name) + "=" + std::string(table[k].fallback) + " (default)");
  }
  EXPECT_EQ(none.executor.value(), "auto");
  EXPECT_FALSE(none.threads_chosen());
  EXPECT_NO_THROW(none.check_spmd.value());
}

TEST(settings, accepted_texts_become_values) {
  const settings s = read_from({{"FUNCMESH_EXECUTOR", "cuda:2"},
                                {"FUNCMESH_REQUIRE_GPU", ""},
                                {"FUNCMESH_GPU", "3"},
                                {"FUNCMESH_GPU_AWARE_MPI", "0"},
                                {"FUNCMESH_THREADS_TARGET", "4"},
                                {"OMP_NUM_THREADS", "5,2"},
                                {"FUNCMESH_PARALLEL_MIN_SIZE", "0"},
                                {"FUNCMESH_HALO_PROGRESS_CHUNKS", "3"},
                                {"FUNCMESH_CHECK_SPMD", "0"},
                                {"FUNCMESH_VERBOSE", "1"},
                                {"FUNCMESH_PROFILE", "nvtx"}});
  EXPECT_EQ(s.executor.value(), "cuda:2");
  EXPECT_FALSE(s.require_gpu.value());
  EXPECT_EQ(s.gpu.value(), 3);
  EXPECT_FALSE(s.gpu_aware_mpi.value());
  EXPECT_EQ(s.threads_target.value(), 4);
  EXPECT_EQ(s.omp_num_threads.value(), "5,2");
  EXPECT_EQ(s.parallel_min_size.value(), 0);
  EXPECT_EQ(s.halo_progress_chunks.value(), 3);
  EXPECT_FALSE(s.check_spmd.value());
  EXPECT_TRUE(s.verbose.value());
  EXPECT_EQ(s.profile.value(), profile_mode::nvtx);
  EXPECT_TRUE(s.threads_chosen());
  for (const std::string& line : s.describe()) {
    EXPECT_TRUE(line.ends_with(" (from environment)")) << line;
  }
  EXPECT_EQ(read_from({{"FUNCMESH_EXECUTOR", ""}}).executor.value(), "auto");
  EXPECT_EQ(read_from({{"FUNCMESH_GPU", ""}}).gpu.value(), std::nullopt);
  EXPECT_TRUE(read_from({{"OMP_NUM_THREADS", "1"}}).threads_chosen());
}

// Each refusal names the variable and the text; what is accepted is in every message.
TEST(settings, refused_texts_name_variable_value_and_what_is_accepted) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"FUNCMESH_EXECUTOR", "gpu"},
      {"FUNCMESH_REQUIRE_GPU", "yes"},
      {"FUNCMESH_GPU", "-1"},
      {"FUNCMESH_GPU_AWARE_MPI", "2"},
      {"FUNCMESH_THREADS_TARGET", "abc"},
      {"FUNCMESH_PARALLEL_MIN_SIZE", "12junk"},
      {"FUNCMESH_HALO_PROGRESS_CHUNKS", "x"},
      {"FUNCMESH_CHECK_SPMD", "on"},
      {"FUNCMESH_VERBOSE", "yes"},
      {"FUNCMESH_PROFILE", "table"}};
  for (const auto& [name, text] : cases) {
    const settings s = read_from({{name, text}});
    std::string problem;
    for (const std::string& line : s.describe()) {
      if (line.starts_with(name + "=")) {
        EXPECT_EQ(line, name + "=" + text + " (from environment, refused)");
      }
    }
    const std::vector<const setting_base*> fields = {&s.executor,
                                                     &s.require_gpu,
                                                     &s.gpu,
                                                     &s.gpu_aware_mpi,
                                                     &s.threads_target,
                                                     &s.parallel_min_size,
                                                     &s.halo_progress_chunks,
                                                     &s.check_spmd,
                                                     &s.verbose,
                                                     &s.profile};
    for (const setting_base* field : fields) {
      if (!field->accepted()) problem += field->problem();
    }
    EXPECT_NE(problem.find(name), std::string::npos) << problem;
    EXPECT_NE(problem.find(text), std::string::npos) << problem;
  }
  // The messages tests and users already know.
  EXPECT_EQ(read_from({{"FUNCMESH_THREADS_TARGET", "abc"}}).threads_target.problem(),
            "FUNCMESH_THREADS_TARGET='abc' is not a non-negative integer");
  EXPECT_EQ(read_from({{"FUNCMESH_HALO_PROGRESS_CHUNKS", "0"}}).halo_progress_chunks.problem(),
            "FUNCMESH_HALO_PROGRESS_CHUNKS=0: must be at least 1 (1: no progress calls)");
  EXPECT_THROW(read_from({{"FUNCMESH_REQUIRE_GPU", "yes"}}).require_gpu.value(), device_error);
  EXPECT_THROW(read_from({{"FUNCMESH_EXECUTOR", "Serial"}}).executor.value(), device_error);
  EXPECT_THROW(read_from({{"FUNCMESH_GPU", "1x"}}).gpu.value(), error);
}

// load() at start-up: one refused variable throws its own error; several, one error naming
// each. A refused FUNCMESH_PROFILE only warns (profiling stays off).
TEST(settings, load_checks_every_variable_of_the_environment) {
  ::setenv("FUNCMESH_VERBOSE", "yes", 1);
  detail::reload_settings();
  EXPECT_THROW(settings::load(), error);
  ::setenv("FUNCMESH_REQUIRE_GPU", "maybe", 1);
  detail::reload_settings();
  try {
    settings::load();
    ADD_FAILURE() << "two refused variables were accepted";
  } catch (const error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("FUNCMESH_VERBOSE='yes'"), std::string::npos) << message;
    EXPECT_NE(message.find("FUNCMESH_REQUIRE_GPU='maybe'"), std::string::npos) << message;
  }
  ::unsetenv("FUNCMESH_VERBOSE");
  detail::reload_settings();
  EXPECT_THROW(settings::load(), device_error);  // FUNCMESH_REQUIRE_GPU's own type
  ::unsetenv("FUNCMESH_REQUIRE_GPU");
  ::setenv("FUNCMESH_PROFILE", "sometimes", 1);
  detail::reload_settings();
  EXPECT_NO_THROW(settings::load());
  EXPECT_FALSE(settings::get().profile.accepted());
  ::unsetenv("FUNCMESH_PROFILE");
  detail::reload_settings();
  EXPECT_NO_THROW(settings::load());
}

}  // namespace
}  // namespace funcmesh::testing
