// token and the FIFO reader/writer lock every buffer carries. Requests are granted in
// arrival order (a writer is never starved by a stream of readers); a request that
// could only be granted after its own thread lets go throws instead of deadlocking.
#include <funcmesh/core/error.hpp>
#include <funcmesh/memory/memory_error.hpp>
#include <funcmesh/memory/token.hpp>

#include <algorithm>
#include <atomic>
#include <utility>

#include "buffer_state.hpp"

namespace funcmesh {

namespace {
std::uint64_t next_token_id() {
  static std::atomic<std::uint64_t> counter{1};
  return counter.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

token::token() : id_(next_token_id()) {}

token::~token() { release(); }

token::token(token&& other) noexcept : id_(other.id_), held_(std::move(other.held_)) {
  other.id_ = next_token_id();
  other.held_.clear();
}

token& token::operator=(token&& other) noexcept {
  if (this != &other) {
    release();
    id_ = std::exchange(other.id_, next_token_id());
    held_ = std::move(other.held_);
    other.held_.clear();
  }
  return *this;
}

void token::release() noexcept {
  for (auto& state : held_) state->release_holder(id_);
  held_.clear();
}

namespace detail {

bool buffer_state::compatible(access_mode mode) const {
  if (holders.empty()) return true;
  if (mode == access_mode::write) return false;
  return std::none_of(holders.begin(), holders.end(), [](const lock_holder& h) {
    return h.mode == access_mode::write || h.upgrading;
  });
}

void buffer_state::grant_waiting() {
  bool granted_any = false;
  while (!queue.empty() && compatible(queue.front()->mode)) {
    lock_waiter* next = queue.front();
    queue.pop_front();
    holders.push_back({next->token_id, next->mode, next->thread});
    next->granted = true;
    granted_any = true;
  }
  if (granted_any) changed.notify_all();
}

void buffer_state::release_holder(std::uint64_t token_id) noexcept {
  std::lock_guard guard(mutex);
  std::erase_if(holders, [&](const lock_holder& h) { return h.token_id == token_id; });
  grant_waiting();
  changed.notify_all();  // an upgrading reader waits for the others to leave
}

void buffer_state::acquire(std::unique_lock<std::mutex>& lock, token& holder, access_mode mode,
                           const std::shared_ptr<buffer_state>& self) {
  const auto me = std::this_thread::get_id();
  auto find_own = [&] {
    return std::find_if(holders.begin(), holders.end(),
                        [&](const lock_holder& h) { return h.token_id == holder.id_; });
  };
  auto held_by_this_thread = [&] {
    return std::any_of(holders.begin(), holders.end(), [&](const lock_holder& h) {
      return h.thread == me && h.token_id != holder.id_;
    });
  };

  if (auto own = find_own(); own != holders.end()) {
    own->thread = me;  // a token may have moved to this thread since it was granted
    if (own->mode == access_mode::write || mode == access_mode::read) return;
    // Upgrade from reading to writing: wait until this token is the only holder.
    if (holders.size() == 1) {
      own->mode = access_mode::write;
      return;
    }
    if (held_by_this_thread())
      throw token_error(
          "token requests a buffer for writing while another token of the same thread reads "
          "it: waiting would deadlock (release that token, or use one token for both)");
    const bool another_upgrade = std::any_of(holders.begin(), holders.end(),
                                             [](const lock_holder& h) { return h.upgrading; });
    if (!another_upgrade) {
      own->upgrading = true;
      changed.wait(lock, [&] { return holders.size() == 1; });
      own = find_own();
      own->upgrading = false;
      own->mode = access_mode::write;
      return;
    }
    // Two readers both want to write: each would wait for the other to leave. This one
    // gives up its read hold and queues as the next writer, ahead of later arrivals.
    holders.erase(own);
    lock_waiter waiter{holder.id_, access_mode::write, me};
    queue.push_front(&waiter);
    changed.notify_all();  // the other upgrader may now be alone
    changed.wait(lock, [&] { return waiter.granted; });
    return;  // `holder.held_` already lists this buffer
  }

  if (queue.empty() && compatible(mode)) {
    holders.push_back({holder.id_, mode, me});
  } else {
    if (held_by_this_thread())
      throw token_error(
          std::string("token requests a buffer for ") +
          (mode == access_mode::write ? "writing" : "reading") +
          " while another token of the same thread holds it" +
          (mode == access_mode::read ? " (or a queued writer waits on that hold)" : "") +
          ": waiting would deadlock; release the first token, or reuse it");
    lock_waiter waiter{holder.id_, mode, me};
    queue.push_back(&waiter);
    changed.wait(lock, [&] { return waiter.granted; });
  }
  holder.held_.push_back(self);
}

}  // namespace detail
}  // namespace funcmesh
