// Shared by the paged-array tests: the stores every suite runs on, a temporary directory,
// a scoped simulated-device capacity, and message checks.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <funcmesh/memory/memory.hpp>
#include <funcmesh/paged/paged.hpp>

namespace funcmesh::testing {

// A fresh directory under $TMPDIR (or /tmp), removed with everything in it.
class temporary_directory {
 public:
  temporary_directory() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern =
        std::string(base && *base ? base : "/tmp") + "/funcmesh-paged-test-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~temporary_directory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  temporary_directory(const temporary_directory&) = delete;
  temporary_directory& operator=(const temporary_directory&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Sets a simulated device's capacity for a scope.
class scoped_simulated_capacity {
 public:
  scoped_simulated_capacity(int device, std::size_t bytes)
      : device_(device), previous_(simulated_capacity(device)) {
    set_simulated_capacity(device, bytes);
  }
  ~scoped_simulated_capacity() { set_simulated_capacity(device_, previous_); }
  scoped_simulated_capacity(const scoped_simulated_capacity&) = delete;
  scoped_simulated_capacity& operator=(const scoped_simulated_capacity&) = delete;

 private:
  int device_;
  std::size_t previous_;
};

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Runs `f` and expects it to throw E whose what() contains every string of `parts`.
template <class E, class F>
void expect_error(F&& f, const std::vector<std::string>& parts) {
  try {
    f();
    ADD_FAILURE() << "no exception thrown";
  } catch (const E& e) {
    for (const auto& part : parts)
      EXPECT_TRUE(contains(e.what(), part)) << "'" << part << "' missing in: " << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

// A store recipe for parameterized suites; files go to `directory`.
struct store_case {
  std::string name;
  std::function<std::unique_ptr<page_store>(const std::filesystem::path& directory)> make;
};

inline std::vector<store_case> all_store_cases() {
  return {
      {"host",
       [](const std::filesystem::path&) -> std::unique_ptr<page_store> {
         return std::make_unique<space_store>(host_space, 2);
       }},
      {"two_simulated_devices",
       [](const std::filesystem::path&) -> std::unique_ptr<page_store> {
         return std::make_unique<space_store>(
             std::vector<space_channels>{{simulated_space(0), 1}, {simulated_space(1), 3}});
       }},
      {"file",
       [](const std::filesystem::path& directory) -> std::unique_ptr<page_store> {
         return std::make_unique<file_store>(directory, file_store_options{.channels = 3});
       }},
  };
}

// gtest prints a parameter in test names and failures: the store's name, not its bytes.
inline void PrintTo(const store_case& c, std::ostream* out) { *out << c.name; }

inline std::string store_case_name(const ::testing::TestParamInfo<store_case>& info) {
  return info.param.name;
}

}  // namespace funcmesh::testing
