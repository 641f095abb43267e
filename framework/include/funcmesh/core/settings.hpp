// settings: every environment variable funcmesh reads (FUNCMESH_*, and OMP_NUM_THREADS),
// read once into one typed object from one table (src/core/settings.cpp; docs/settings.md
// shows it). A refused value is an error naming the variable, its text and what is accepted.
#pragma once

#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <funcmesh/core/index.hpp>

namespace funcmesh {

// FUNCMESH_PARALLEL_MIN_SIZE's default (exec::default_parallel_min_size, thread_policy.hpp).
inline constexpr index_t default_parallel_min_size = 65536;

namespace detail {
// The value of environment variable `name` as a count: nullopt when text is null (unset);
// throws funcmesh::error naming the variable and value when text is not a plain decimal
// non-negative integer (signs, spaces, trailing junk, empty) or exceeds max.
std::optional<index_t> parse_count(std::string_view name, const char* text, index_t max);
}  // namespace detail

// What a setting's type does not say: where its value came from, and why the environment's
// text was refused (kept, not thrown: a value is checked where it is used, or by load()).
class setting_base {
 public:
  // The variable was set (possibly to ""); text() is what it said.
  bool from_environment() const { return from_environment_; }
  const std::string& text() const { return text_; }
  bool accepted() const { return !problem_; }
  // The refusal's message ("" when accepted).
  const std::string& problem() const { return problem_message_; }
  // Throws the refusal (funcmesh::error or a subclass) when the text was refused.
  void check() const {
    if (problem_) std::rethrow_exception(problem_);
  }

 protected:
  bool from_environment_ = false;
  std::string text_;
  std::exception_ptr problem_;
  std::string problem_message_;
};

// One variable: its value in force, the default when unset.
template <class T>
class setting : public setting_base {
 public:
  // Throws the variable's error when its text was refused.
  const T& value() const {
    check();
    return value_;
  }

  // Sets it from the environment's text (null: unset, so `fallback`); `parse(text)` gives the
  // value or throws. Called by settings.cpp's table only.
  template <class Parse>
  void read(const char* text, T fallback, const Parse& parse) {
    value_ = std::move(fallback);
    from_environment_ = text != nullptr;
    text_ = text != nullptr ? text : "";
    problem_ = nullptr;
    problem_message_.clear();
    if (text == nullptr) return;
    try {
      value_ = parse(std::string_view(text_));
    } catch (const std::exception& refused) {
      problem_ = std::current_exception();
      problem_message_ = refused.what();
    }
  }

 private:
  T value_{};
};

// FUNCMESH_PROFILE: nothing, the table at exit, NVTX ranges only.
enum class profile_mode { off, table, nvtx };

// The values in force. Each field's comment names its variable; docs/settings.md has the
// table (defaults, accepted values, meaning).
struct settings {
  // FUNCMESH_EXECUTOR ("" reads as "auto"), FUNCMESH_REQUIRE_GPU, FUNCMESH_GPU (nullopt:
  // local rank mod visible GPUs), FUNCMESH_GPU_AWARE_MPI (true: when the MPI library can).
  setting<std::string> executor;
  setting<bool> require_gpu;
  setting<std::optional<int>> gpu;
  setting<bool> gpu_aware_mpi;
  // FUNCMESH_THREADS_TARGET, OMP_NUM_THREADS (OpenMP's text), FUNCMESH_PARALLEL_MIN_SIZE.
  setting<std::optional<int>> threads_target;
  setting<std::optional<std::string>> omp_num_threads;
  setting<index_t> parallel_min_size;
  // FUNCMESH_HALO_PROGRESS_CHUNKS, FUNCMESH_CHECK_SPMD, FUNCMESH_VERBOSE, FUNCMESH_PROFILE
  // (a refused text leaves profiling off, named on stderr).
  setting<int> halo_progress_chunks;
  setting<bool> check_spmd;
  setting<bool> verbose;
  setting<profile_mode> profile;

  // The user chose a thread count: FUNCMESH_THREADS_TARGET or OMP_NUM_THREADS is set.
  bool threads_chosen() const {
    return threads_target.from_environment() || omp_num_threads.from_environment();
  }

  // The settings in force: the environment as read at the first call (before main in any
  // program that links a loop) or by detail::reload_settings(). Never throws.
  static const settings& get();
  // get(), with every value checked: a refused one throws its error (several: one
  // funcmesh::error naming each). A refused FUNCMESH_PROFILE only warns, at start-up.
  // mpi::environment calls it on every rank; app::program::parse_or_exit_code too.
  static const settings& load();
  // The settings `lookup(name)` gives (null: unset): the table applied to any source.
  static settings read(const std::function<const char*(const char* name)>& lookup);

  // One line per variable, in the table's order: "NAME=value (default)" or
  // "NAME=value (from environment)"; a refused text shows as given, "(refused)".
  std::vector<std::string> describe() const;
  // describe()'s lines on stderr under "funcmesh: settings (docs/settings.md):": what
  // --verbose prints (mpi::environment from rank 0, app::program::parse_or_exit_code).
  void print() const;

  // The table's rows, in its order, as docs/settings.md shows them.
  struct row {
    std::string_view name, fallback, accepted, meaning;
  };
  static std::vector<row> table();

 private:
  settings() = default;
};

namespace detail {
// Reads the environment again, in place (references from get() see the new values). For
// tests that setenv at run time; values already resolved elsewhere (threads_target(),
// halo_progress_chunks(), gpu_aware()) keep theirs. Not thread-safe.
void reload_settings();
}  // namespace detail

}  // namespace funcmesh
