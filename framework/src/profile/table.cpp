// The FUNCMESH_PROFILE table: its hooks, its totals, the report at exit of a process that no
// one else reports for, and the reading of FUNCMESH_PROFILE at start-up.
#include <funcmesh/profile/table.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string_view>

#include <funcmesh/core/settings.hpp>
#include <funcmesh/profile/device_activity.hpp>
#include <funcmesh/profile/nvtx.hpp>

#include "nvtx_ranges.hpp"
#include "start_up.hpp"

namespace funcmesh::profile {

namespace {

using steady = std::chrono::steady_clock;

struct totals {
  std::uint64_t calls = 0;
  double seconds = 0;
  std::uint64_t bytes = 0;
};

// Never destroyed: the report at exit runs after static destructors have begun.
struct table_state {
  std::mutex mutex;
  std::vector<totals> by_id;
  std::atomic<bool> requested{false};
  std::atomic<bool> taken{false};
};

table_state& the_table() {
  static table_state* const instance = new table_state;
  return *instance;
}

totals& totals_of(table_state& t, std::uint32_t id) {
  if (t.by_id.size() <= id) t.by_id.resize(id + 1);
  return t.by_id[id];
}

// Each thread's open regions: begin and end nest on a thread (hooks.hpp).
thread_local std::vector<steady::time_point> started;

void on_begin(const region& r) {
  detail::nvtx_push(r.name.data());
  started.push_back(steady::now());
}

void on_end(const region& r) {
  const steady::time_point now = steady::now();
  detail::nvtx_pop();
  if (started.empty()) return;  // began under other hooks
  const double seconds = std::chrono::duration<double>(now - started.back()).count();
  started.pop_back();
  table_state& t = the_table();
  const std::lock_guard lock(t.mutex);
  totals& row = totals_of(t, r.id);
  ++row.calls;
  row.seconds += seconds;
}

void on_bytes(const region& r, std::uint64_t bytes) {
  table_state& t = the_table();
  const std::lock_guard lock(t.mutex);
  totals_of(t, r.id).bytes += bytes;
}

// A process that nobody reported for (no MPI, or MPI not started by funcmesh) prints its
// own table; stdout, after everything the program printed.
void report_at_exit() {
  table_state& t = the_table();
  if (t.taken.exchange(true)) return;
  const std::string text = format_table({table_entries()});
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
}

struct merged_row {
  std::string name;
  std::uint64_t calls = 0;       // max over ranks
  std::uint64_t all_calls = 0;   // sum over ranks
  double sum_seconds = 0;        // sum over ranks
  double max_seconds = 0;        // max over ranks
  std::uint64_t bytes = 0;       // sum over ranks
  std::uint64_t device[4] = {};  // launches, syncs, copies h->d, d->h: sums over ranks
};

template <class T>
void put(std::string& out, const T& value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

template <class T>
bool take(std::string_view& in, T& value) {
  if (in.size() < sizeof(T)) return false;
  std::memcpy(&value, in.data(), sizeof(T));
  in.remove_prefix(sizeof(T));
  return true;
}

}  // namespace

hooks table_hooks() {
  hooks table;
  table.begin = on_begin;
  table.end = on_end;
  table.bytes_sent = on_bytes;
  return table;
}

bool table_requested() { return the_table().requested.load(); }

std::vector<table_entry> table_entries() {
  table_state& t = the_table();
  std::vector<totals> copy;
  {
    const std::lock_guard lock(t.mutex);
    copy = t.by_id;
  }
  std::vector<table_entry> entries;
  for (std::uint32_t id = 0; id < copy.size(); ++id) {
    const totals& row = copy[id];
    if (row.calls == 0 && row.bytes == 0) continue;
    entries.push_back({detail::region_name(id), row.calls, row.seconds, row.bytes});
  }
  // The device's counts by label: into the loop's row, or a row of their own (copies and
  // synchronisations outside any profiled region).
  for (const device_activity_entry& device : device_activity_by_label()) {
    auto row = std::ranges::find(entries, device.name, &table_entry::name);
    if (row == entries.end()) {
      entries.push_back({device.name});
      row = entries.end() - 1;
    }
    row->launches = device.counts.launches;
    row->synchronizations = device.counts.synchronizations;
    row->copies_from_host = device.counts.copies_from_host;
    row->copies_to_host = device.counts.copies_to_host;
  }
  return entries;
}

void table_taken() { the_table().taken.store(true); }

std::string format_table(const std::vector<std::vector<table_entry>>& per_rank) {
  const std::size_t ranks = std::max<std::size_t>(per_rank.size(), 1);
  std::map<std::string, merged_row, std::less<>> by_name;
  for (const auto& entries : per_rank) {
    for (const table_entry& e : entries) {
      merged_row& row = by_name[e.name];
      row.name = e.name;
      row.calls = std::max(row.calls, e.calls);
      row.all_calls += e.calls;
      row.sum_seconds += e.seconds;
      row.max_seconds = std::max(row.max_seconds, e.seconds);
      row.bytes += e.bytes;
      row.device[0] += e.launches;
      row.device[1] += e.synchronizations;
      row.device[2] += e.copies_from_host;
      row.device[3] += e.copies_to_host;
    }
  }
  const bool device = std::ranges::any_of(by_name, [](const auto& named) {
    const merged_row& row = named.second;
    return (row.device[0] | row.device[1] | row.device[2] | row.device[3]) != 0;
  });
  std::vector<merged_row> rows;
  for (auto& [name, row] : by_name) rows.push_back(std::move(row));
  std::stable_sort(rows.begin(), rows.end(), [](const merged_row& a, const merged_row& b) {
    return a.sum_seconds > b.sum_seconds;
  });

  std::size_t width = std::strlen("label");
  for (const merged_row& row : rows) width = std::max(width, row.name.size());
  const int w = static_cast<int>(width);
  std::string out =
      "funcmesh profile (" + std::to_string(ranks) + (ranks == 1 ? " rank)\n" : " ranks)\n");
  char line[256];
  std::snprintf(line, sizeof line, "%-*s %10s %12s %12s %9s %14s", w, "label", "calls", "total s",
                "mean us", "max/mean", "halo bytes");
  out += line;
  if (device) {
    std::snprintf(line, sizeof line, " %10s %8s %8s %8s", "launches", "syncs", "h->d", "d->h");
    out += line;
  }
  out += '\n';
  for (const merged_row& row : rows) {
    const double mean = row.sum_seconds / static_cast<double>(ranks);
    const double per_call =
        row.all_calls > 0 ? 1e6 * row.sum_seconds / static_cast<double>(row.all_calls) : 0.0;
    const double imbalance = mean > 0 ? row.max_seconds / mean : 1.0;
    // The label may be longer than the line buffer: it goes in on its own.
    out += row.name;
    out.append(width - row.name.size(), ' ');
    std::snprintf(line, sizeof line, " %10llu %12.6f %12.3f %9.2f %14llu",
                  static_cast<unsigned long long>(row.calls), mean, per_call, imbalance,
                  static_cast<unsigned long long>(row.bytes));
    out += line;
    if (device) {
      std::snprintf(line, sizeof line, " %10llu %8llu %8llu %8llu",
                    static_cast<unsigned long long>(row.device[0]),
                    static_cast<unsigned long long>(row.device[1]),
                    static_cast<unsigned long long>(row.device[2]),
                    static_cast<unsigned long long>(row.device[3]));
      out += line;
    }
    out += '\n';
  }
  return out;
}

std::string encode_entries(const std::vector<table_entry>& entries) {
  std::string out;
  put(out, static_cast<std::uint64_t>(entries.size()));
  for (const table_entry& e : entries) {
    put(out, static_cast<std::uint64_t>(e.name.size()));
    out += e.name;
    put(out, e.calls);
    put(out, e.seconds);
    put(out, e.bytes);
    put(out, e.launches);
    put(out, e.synchronizations);
    put(out, e.copies_from_host);
    put(out, e.copies_to_host);
  }
  return out;
}

std::vector<table_entry> decode_entries(std::string_view in) {
  std::vector<table_entry> entries;
  std::uint64_t count = 0;
  if (!take(in, count)) return entries;
  for (std::uint64_t k = 0; k < count; ++k) {
    table_entry e;
    std::uint64_t length = 0;
    if (!take(in, length) || in.size() < length) break;
    e.name.assign(in.substr(0, length));
    in.remove_prefix(length);
    if (!take(in, e.calls) || !take(in, e.seconds) || !take(in, e.bytes) || !take(in, e.launches) ||
        !take(in, e.synchronizations) || !take(in, e.copies_from_host) ||
        !take(in, e.copies_to_host)) {
      break;
    }
    entries.push_back(std::move(e));
  }
  return entries;
}

namespace detail {

void start_from_environment() {
  const setting<profile_mode>& chosen = settings::get().profile;
  if (!chosen.accepted()) {
    std::fprintf(stderr, "funcmesh: %s\n", chosen.problem().c_str());
    return;
  }
  const profile_mode mode = chosen.value();
  if (mode == profile_mode::table) {
    table_state& t = the_table();
    t.requested.store(true);
    set_hooks(table_hooks());
    // Registered after the table exists: it is never destroyed before the report.
    std::atexit(report_at_exit);
  } else if (mode == profile_mode::nvtx) {
    if (nvtx_available()) {
      set_hooks(nvtx_hooks());
    } else {
      std::fputs(
          "funcmesh: FUNCMESH_PROFILE=nvtx: this build has no NVTX (CUDA is off); "
          "profiling stays off\n",
          stderr);
    }
  }
}

}  // namespace detail

}  // namespace funcmesh::profile
