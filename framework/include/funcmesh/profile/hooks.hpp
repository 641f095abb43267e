// profile hooks: callbacks at the start and end of every loop and halo round, for external
// tools (Kokkos Tools' begin/end_parallel_for, simpler). Off by default: a loop then pays
// one relaxed load of a process-wide flag and one predictable branch.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string_view>

#include <funcmesh/core/loop_label.hpp>

namespace funcmesh::profile {

// What a loop or a halo round is: its text ("assignment to grid function 'u'") and a small
// dense id, the same for the same text for the whole process (a tool may index an array
// with it). `name` is NUL-terminated and lives until the process exits.
struct region {
  std::uint32_t id = 0;
  std::string_view name;
};

// The callbacks; any may be empty. begin and end come in nested pairs on each thread (a
// loop may run inside another loop, or inside a halo round); loops on several threads call
// them concurrently, so they must be thread-safe. They must not throw. bytes_sent comes
// between the begin and end of a halo round: the bytes this process sends in that round.
struct hooks {
  std::function<void(const region&)> begin;
  std::function<void(const region&)> end;
  std::function<void(const region&, std::uint64_t bytes)> bytes_sent;

  bool empty() const { return !begin && !end && !bytes_sent; }
};

// Installs `next` in place of the current hooks (FUNCMESH_PROFILE's table among them) and
// returns those, so that a tool can restore or chain them. Empty hooks switch profiling
// off. Call it while no loop runs (at start-up, between time steps), from one thread.
hooks set_hooks(hooks next);
// set_hooks({}): profiling off.
hooks clear_hooks();

namespace detail {
// True while hooks are installed. Written by set_hooks only.
extern std::atomic<bool> hooks_installed;
}  // namespace detail

// Whether hooks are installed: the one test every loop makes.
inline bool active() noexcept { return detail::hooks_installed.load(std::memory_order_relaxed); }

// The region of this text (interned: the same text, the same id). Thread-safe.
region named(std::string_view name);
// The region of a loop: its label's text, formatted once per distinct (what, subject,
// fused) on each thread and then looked up (a renamed or reused subject is noticed).
region of(const exec::loop_label& label);

// The installed hooks' callbacks; nothing where none is installed.
void begin(const region& r);
void end(const region& r) noexcept;
void bytes_sent(const region& r, std::uint64_t bytes);

}  // namespace funcmesh::profile
