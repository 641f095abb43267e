// The installed hooks, the interned region names, and each thread's cache of loop labels.
#include <funcmesh/profile/hooks.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "start_up.hpp"

namespace funcmesh::profile {

namespace detail {
std::atomic<bool> hooks_installed{false};
}  // namespace detail

namespace {

// Never destroyed: a loop that runs during static destruction still finds its hooks and
// names (reachable through the pointer, so not a leak to LeakSanitizer).
struct registry {
  hooks installed;
  std::mutex names_mutex;
  std::map<std::string, std::uint32_t, std::less<>> ids;  // keys never move
  std::vector<const std::string*> names;                  // by id
};

registry& the_registry() {
  static registry* const instance = new registry;
  return *instance;
}

// One entry of a thread's label cache: the label's pointers and the texts they pointed to
// when it was formatted, so that a subject renamed, or freed and its address reused by
// another function, is formatted again instead of reporting the old name.
struct cached_label {
  const char* what = nullptr;
  const std::string* subject = nullptr;
  std::size_t fused = 0;
  std::string what_text;
  std::string subject_text;
  region found;
  bool valid = false;
};

constexpr std::size_t cache_size = 64;  // direct-mapped: a program has a few dozen loops
thread_local std::array<cached_label, cache_size> label_cache;

std::size_t slot_of(const exec::loop_label& label) {
  const auto what = reinterpret_cast<std::uintptr_t>(label.what);
  const auto subject = reinterpret_cast<std::uintptr_t>(label.subject);
  return ((what >> 3) * 31 + (subject >> 3) * 17 + label.fused) % cache_size;
}

bool same_label(const cached_label& entry, const exec::loop_label& label) {
  if (!entry.valid || entry.what != label.what || entry.subject != label.subject ||
      entry.fused != label.fused || std::strcmp(entry.what_text.c_str(), label.what) != 0) {
    return false;
  }
  return label.subject == nullptr || entry.subject_text == *label.subject;
}

// FUNCMESH_PROFILE is read before main, wherever a loop is linked (this file always is).
[[maybe_unused]] const bool environment_read = [] {
  detail::start_from_environment();
  return true;
}();

}  // namespace

hooks set_hooks(hooks next) {
  registry& r = the_registry();
  const bool on = !next.empty();
  // Off first, on last: a loop that sees the flag set finds the hooks in place.
  detail::hooks_installed.store(false, std::memory_order_release);
  hooks previous = std::move(r.installed);
  r.installed = std::move(next);
  detail::hooks_installed.store(on, std::memory_order_release);
  return previous;
}

hooks clear_hooks() { return set_hooks({}); }

region named(std::string_view name) {
  registry& r = the_registry();
  const std::lock_guard lock(r.names_mutex);
  auto found = r.ids.find(name);
  if (found == r.ids.end()) {
    found = r.ids.emplace(std::string(name), static_cast<std::uint32_t>(r.names.size())).first;
    r.names.push_back(&found->first);
  }
  return {found->second, found->first};
}

region of(const exec::loop_label& label) {
  cached_label& entry = label_cache[slot_of(label)];
  if (same_label(entry, label)) return entry.found;
  entry.found = named(label.text());
  entry.what = label.what;
  entry.subject = label.subject;
  entry.fused = label.fused;
  entry.what_text = label.what;
  entry.subject_text = label.subject != nullptr ? *label.subject : std::string();
  entry.valid = true;
  return entry.found;
}

void begin(const region& where) {
  const hooks& h = the_registry().installed;
  if (h.begin) h.begin(where);
}

void end(const region& where) noexcept {
  const hooks& h = the_registry().installed;
  if (h.end) h.end(where);
}

void bytes_sent(const region& where, std::uint64_t bytes) {
  const hooks& h = the_registry().installed;
  if (h.bytes_sent) h.bytes_sent(where, bytes);
}

namespace detail {

std::string region_name(std::uint32_t id) {
  registry& r = the_registry();
  const std::lock_guard lock(r.names_mutex);
  return id < r.names.size() ? *r.names[id] : std::string();
}

}  // namespace detail

}  // namespace funcmesh::profile
