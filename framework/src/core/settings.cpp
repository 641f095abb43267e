// The one table of environment variables: each row's name, default, accepted values and
// meaning, and how its text becomes a value. Reading, checking, --verbose's lines and the
// documentation check (tests/framework/core/settings_test.cpp) all come from it.
#include <funcmesh/core/settings.hpp>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <system_error>

#include <funcmesh/core/error.hpp>

namespace funcmesh {

namespace detail {

namespace {
std::string quoted(std::string_view name, std::string_view text) {
  std::string out(name);
  out += "='";
  out += text;
  out += '\'';
  return out;
}
}  // namespace

std::optional<index_t> parse_count(std::string_view name, const char* text, index_t max) {
  if (text == nullptr) return std::nullopt;
  const std::string_view s(text);
  // from_chars alone would accept a leading '-'; only plain digits are a count.
  const bool digits_first = !s.empty() && s.front() >= '0' && s.front() <= '9';
  index_t value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (!digits_first || (ec != std::errc{} && ec != std::errc::result_out_of_range) ||
      end != s.data() + s.size()) {
    throw error(quoted(name, s) + " is not a non-negative integer");
  }
  if (ec == std::errc::result_out_of_range || value > max) {
    throw error(quoted(name, s) + " is too large (at most " + std::to_string(max) + ")");
  }
  return value;
}

}  // namespace detail

namespace {

#ifdef NDEBUG
constexpr bool settings_debug_build = false;
#else
constexpr bool settings_debug_build = true;
#endif

// ---- the parsers: non-null text to value, or an error naming the variable ----

std::string parse_executor_setting(std::string_view text) {
  if (text.empty() || text == "auto") return "auto";
  if (text == "serial" || text == "openmp" || text == "cuda") return std::string(text);
  if (text.starts_with("cuda:")) {
    // parse_executor's rule: an int >= 0, nothing else.
    const std::string_view digits = text.substr(5);
    int device = -1;
    const auto [end, status] =
        std::from_chars(digits.data(), digits.data() + digits.size(), device);
    if (status == std::errc() && end == digits.data() + digits.size() && device >= 0) {
      return std::string(text);
    }
  }
  throw device_error("FUNCMESH_EXECUTOR: funcmesh::parse_executor: '" + std::string(text) +
                     "' is not an executor (expected serial, openmp, cuda, cuda:<device> or "
                     "auto)");
}

bool parse_require_gpu(std::string_view text) {
  if (text.empty() || text == "0") return false;
  if (text == "1") return true;
  throw device_error("funcmesh::gpu_required: FUNCMESH_REQUIRE_GPU='" + std::string(text) +
                     "': expected 1 (fail where no GPU is visible) or 0");
}

std::optional<int> parse_gpu_setting(std::string_view text) {
  if (text.empty()) return std::nullopt;
  const std::string value(text);
  char* end = nullptr;
  errno = 0;
  const long parsed = std::strtol(value.c_str(), &end, 10);
  // strtol skips leading spaces and accepts a sign; neither belongs in a device index.
  if (value[0] < '0' || value[0] > '9' || *end != '\0' || errno == ERANGE || parsed > 1'000'000) {
    throw error("FUNCMESH_GPU=\"" + value + "\" is not a device index (an integer >= 0)");
  }
  return static_cast<int>(parsed);
}

bool parse_gpu_aware_setting(std::string_view text) {
  if (text == "0") return false;
  if (text == "1") return true;
  throw error("FUNCMESH_GPU_AWARE_MPI='" + std::string(text) +
              "': expected 0 (stage device data through the host) or 1 (send device memory "
              "when MPI supports it)");
}

std::optional<int> parse_threads_setting(std::string_view text) {
  const std::string value(text);
  return static_cast<int>(*detail::parse_count("FUNCMESH_THREADS_TARGET", value.c_str(),
                                               std::numeric_limits<int>::max()));
}

index_t parse_min_size_setting(std::string_view text) {
  const std::string value(text);
  return *detail::parse_count("FUNCMESH_PARALLEL_MIN_SIZE", value.c_str(),
                              std::numeric_limits<index_t>::max());
}

int parse_chunks_setting(std::string_view text) {
  const char* name = "FUNCMESH_HALO_PROGRESS_CHUNKS";
  const std::string value(text);
  const index_t chunks = *detail::parse_count(name, value.c_str(), std::numeric_limits<int>::max());
  if (chunks < 1) throw error(std::string(name) + "=0: must be at least 1 (1: no progress calls)");
  return static_cast<int>(chunks);
}

bool parse_check_spmd_setting(std::string_view text) {
  if (text == "1") return true;
  if (text == "0") return false;
  throw error("funcmesh::check_spmd: FUNCMESH_CHECK_SPMD='" + std::string(text) +
              "' (use 1 to check, 0 not to)");
}

bool parse_verbose_setting(std::string_view text) {
  if (text.empty() || text == "0") return false;
  if (text == "1") return true;
  throw error("FUNCMESH_VERBOSE='" + std::string(text) +
              "': expected 1 (print start-up details, as --verbose) or 0");
}

profile_mode parse_profile_setting(std::string_view text) {
  if (text.empty() || text == "0") return profile_mode::off;
  if (text == "1") return profile_mode::table;
  if (text == "nvtx") return profile_mode::nvtx;
  throw error("FUNCMESH_PROFILE='" + std::string(text) +
              "' is not 0, 1 or nvtx; profiling stays off");
}

// ---- values as --verbose shows them ----

std::string shown_value(const std::string& v) { return v; }
std::string shown_value(bool v) { return v ? "1" : "0"; }
std::string shown_value(int v) { return std::to_string(v); }
std::string shown_value(index_t v) { return std::to_string(v); }
std::string shown_value(const std::optional<int>& v) { return v ? std::to_string(*v) : "unset"; }
std::string shown_value(const std::optional<std::string>& v) { return v ? *v : "unset"; }
std::string shown_value(profile_mode v) {
  return v == profile_mode::table ? "1" : v == profile_mode::nvtx ? "nvtx" : "0";
}

// ---- the table ----

struct settings_entry {
  settings::row doc;
  bool warns_only;  // a refused text is named on stderr where it is used, not an error
  std::function<void(settings&, const char*)> read;
  std::function<const setting_base&(const settings&)> field;
  std::function<std::string(const settings&)> shown;
};

template <class T, class Parse>
settings_entry settings_row(setting<T> settings::*member, settings::row doc, T fallback,
                            Parse parse, bool warns_only = false) {
  return {doc, warns_only,
          [=](settings& s, const char* text) { (s.*member).read(text, fallback, parse); },
          [=](const settings& s) -> const setting_base& { return s.*member; },
          [=](const settings& s) { return shown_value((s.*member).value()); }};
}

const std::vector<settings_entry>& settings_entries() {
  static const std::vector<settings_entry> entries = {
      settings_row(
          &settings::executor,
          {"FUNCMESH_EXECUTOR", "auto", "serial, openmp, cuda, cuda:<d>, auto (\"\" is auto)",
           "the default executor; auto: nvcc-compiled loops on the rank's GPU where one "
           "is visible, host-compiled loops on openmp (else serial)"},
          std::string("auto"), parse_executor_setting),
      settings_row(&settings::require_gpu,
                   {"FUNCMESH_REQUIRE_GPU", "0", "0, 1 (\"\" is 0)",
                    "1: where no GPU is visible, auto and the MPI start-up fail instead of "
                    "running on the CPU"},
                   false, parse_require_gpu),
      settings_row(&settings::gpu,
                   {"FUNCMESH_GPU", "unset", "a device index d >= 0 (\"\" is unset)",
                    "each rank's GPU under MPI (unset: local rank mod visible GPUs), checked "
                    "against the visible GPUs on every rank together"},
                   std::optional<int>(), parse_gpu_setting),
      settings_row(&settings::gpu_aware_mpi,
                   {"FUNCMESH_GPU_AWARE_MPI", "1", "0, 1",
                    "1: halo messages of device data go to MPI directly where the library "
                    "supports it; 0: staged through pinned host memory"},
                   true, parse_gpu_aware_setting),
      settings_row(&settings::threads_target,
                   {"FUNCMESH_THREADS_TARGET", "unset", "an integer >= 0",
                    "threads per rank for OpenMP loops (0 or 1: never split); unset: "
                    "OMP_NUM_THREADS, else the CPUs (under MPI, the rank's share of its node)"},
                   std::optional<int>(), parse_threads_setting),
      settings_row(
          &settings::omp_num_threads,
          {"OMP_NUM_THREADS", "unset", "OpenMP's syntax; its first entry, when a positive integer",
           "the thread target where FUNCMESH_THREADS_TARGET is unset (OpenMP's own: "
           "never refused, a value funcmesh cannot read is ignored)"},
          std::optional<std::string>(),
          [](std::string_view text) { return std::optional<std::string>(text); }),
      settings_row(&settings::parallel_min_size,
                   {"FUNCMESH_PARALLEL_MIN_SIZE", "65536", "an integer >= 0",
                    "loops over fewer elements (times work per element) run on the calling "
                    "thread; 0 splits everything"},
                   default_parallel_min_size, parse_min_size_setting),
      // The default is comm's default_halo_progress_chunks (halo_progress_test checks it).
      settings_row(&settings::halo_progress_chunks,
                   {"FUNCMESH_HALO_PROGRESS_CHUNKS", "8", "an integer >= 1",
                    "the most chunks an overlapped interior loop is cut into, an MPI_Testall "
                    "between them; 1: one loop"},
                   8, parse_chunks_setting),
      settings_row(&settings::check_spmd,
                   {"FUNCMESH_CHECK_SPMD", "1 in Debug builds, else 0", "0, 1",
                    "1: each distributed assignment checks that every rank agrees (one "
                    "MPI_Allreduce)"},
                   settings_debug_build, parse_check_spmd_setting),
      settings_row(&settings::verbose,
                   {"FUNCMESH_VERBOSE", "0", "0, 1 (\"\" is 0)",
                    "1: as --verbose: the settings in force, every rank's host and GPU"},
                   false, parse_verbose_setting),
      settings_row(&settings::profile,
                   {"FUNCMESH_PROFILE", "0",
                    "0, 1, nvtx (\"\" is 0; anything else is named on stderr, profiling off)",
                    "1: the per-label table at exit (NVTX ranges too in CUDA builds); nvtx: "
                    "NVTX ranges only"},
                   profile_mode::off, parse_profile_setting, true),
  };
  return entries;
}

// get()'s object: read once; reload_settings() assigns it anew in place.
struct settings_store {
  std::mutex mutex;
  std::optional<settings> current;
  std::atomic<const settings*> ready{nullptr};
};

settings_store& the_settings_store() {
  static settings_store store;  // first used from static initializers: a function's static
  return store;
}

settings from_the_environment() {
  return settings::read([](const char* name) -> const char* { return std::getenv(name); });
}

}  // namespace

settings settings::read(const std::function<const char*(const char* name)>& lookup) {
  settings s;
  for (const settings_entry& e : settings_entries()) e.read(s, lookup(e.doc.name.data()));
  return s;
}

const settings& settings::get() {
  settings_store& store = the_settings_store();
  if (const settings* ready = store.ready.load(std::memory_order_acquire)) return *ready;
  const std::lock_guard lock(store.mutex);
  if (!store.current) {
    store.current.emplace(from_the_environment());
    store.ready.store(&*store.current, std::memory_order_release);
  }
  return *store.current;
}

const settings& settings::load() {
  const settings& s = get();
  std::exception_ptr first;
  std::string all;
  int refused = 0;
  for (const settings_entry& e : settings_entries()) {
    const setting_base& field = e.field(s);
    if (field.accepted() || e.warns_only) continue;
    if (refused++ == 0) {
      try {
        field.check();
      } catch (...) {
        first = std::current_exception();
      }
    } else {
      all += "; ";
    }
    all += field.problem();
  }
  if (refused == 1) std::rethrow_exception(first);  // its own type and words
  if (refused > 1) throw error(all);
  return s;
}

std::vector<std::string> settings::describe() const {
  std::vector<std::string> lines;
  for (const settings_entry& e : settings_entries()) {
    const setting_base& field = e.field(*this);
    std::string line(e.doc.name);
    line += '=';
    if (!field.accepted()) {
      line += field.text() + " (from environment, refused)";
    } else {
      line += e.shown(*this);
      line += field.from_environment() ? " (from environment)" : " (default)";
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

void settings::print() const {
  std::fputs("funcmesh: settings (docs/settings.md):\n", stderr);
  for (const std::string& line : describe()) std::fprintf(stderr, "funcmesh:   %s\n", line.c_str());
  std::fflush(stderr);
}

std::vector<settings::row> settings::table() {
  std::vector<row> rows;
  for (const settings_entry& e : settings_entries()) rows.push_back(e.doc);
  return rows;
}

namespace detail {

void reload_settings() {
  settings_store& store = the_settings_store();
  settings fresh = from_the_environment();
  const std::lock_guard lock(store.mutex);
  if (store.current) {
    *store.current = std::move(fresh);
  } else {
    store.current.emplace(std::move(fresh));
  }
  store.ready.store(&*store.current, std::memory_order_release);
}

}  // namespace detail

}  // namespace funcmesh
