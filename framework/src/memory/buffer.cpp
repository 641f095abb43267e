// buffer's public operations: each takes the state's mutex, obtains the token hold it
// needs, then lets the state do the coherence work.
#include <funcmesh/memory/buffer.hpp>

#include <functional>
#include <utility>

#include <funcmesh/core/error.hpp>

#include "buffer_state.hpp"

namespace funcmesh {

using detail::access_mode;

buffer::buffer() : state_(std::make_shared<detail::buffer_state>()) {}

buffer::buffer(std::size_t bytes) : buffer() { state_->size_bytes = bytes; }

buffer buffer::adopt(void* pointer, std::size_t bytes, memory_space space, deleter release) {
  if (!release) release = [](void*) {};
  if (pointer == nullptr && bytes > 0)
    throw error("buffer::adopt: null pointer for " + std::to_string(bytes) + " bytes in " +
                to_string(space));
  try {
    require_space(space);
  } catch (...) {
    release(pointer);  // ownership passed to adopt, which failed: let the memory go
    throw;
  }
  buffer result;
  auto& state = *result.state_;
  state.size_bytes = bytes;
  state.meaningful_bytes = bytes;
  state.records.push_back(detail::space_record{.space = space,
                                               .pointer = pointer,
                                               .allocated_bytes = bytes,
                                               .allocated = true,
                                               .valid = true,
                                               .adopted_release = std::move(release)});
  return result;
}

std::size_t buffer::size_bytes() const {
  std::lock_guard guard(state_->mutex);
  return state_->size_bytes;
}

void buffer::set_size(std::size_t bytes, preserve keep, token& holder) {
  std::unique_lock lock(state_->mutex);
  state_->acquire(lock, holder, access_mode::write, state_);
  state_->resize(bytes, keep);
}

void buffer::set_size(std::size_t bytes, preserve keep) {
  token holder;
  set_size(bytes, keep, holder);
}

const void* buffer::read_pointer(memory_space space, token& holder) const {
  std::unique_lock lock(state_->mutex);
  state_->acquire(lock, holder, access_mode::read, state_);
  return state_->prepare(space, access_mode::read, true);
}

void* buffer::write_pointer(memory_space space, token& holder) {
  std::unique_lock lock(state_->mutex);
  state_->acquire(lock, holder, access_mode::write, state_);
  return state_->prepare(space, access_mode::write, true);
}

void* buffer::overwrite_pointer(memory_space space, token& holder) {
  std::unique_lock lock(state_->mutex);
  state_->acquire(lock, holder, access_mode::write, state_);
  return state_->prepare(space, access_mode::write, false);
}

void buffer::set_pinned_host(bool pinned) {
  // A write hold: nobody may be using the host pointer when it is moved.
  token holder;
  std::unique_lock lock(state_->mutex);
  state_->acquire(lock, holder, access_mode::write, state_);
  state_->want_pinned_host = pinned;
}

bool buffer::pinned_host() const {
  std::lock_guard guard(state_->mutex);
  return state_->want_pinned_host;
}

void buffer::release_space(memory_space space) {
  token holder;
  std::unique_lock lock(state_->mutex);
  state_->acquire(lock, holder, access_mode::write, state_);
  auto& state = *state_;
  const detail::space_record* record = state.find_record(space);
  if (record == nullptr || !record->allocated) return;
  const bool only_valid = record->valid && state.valid_source_for(space) == nullptr;
  if (only_valid && state.meaningful_bytes > 0) {
    if (space.is_host())
      throw error(
          "buffer::release_space(host): the host holds the only valid copy; releasing "
          "it would lose the data (set_size(0) drops contents on purpose)");
    state.prepare(host_space, access_mode::read, true);
  }
  auto& target = state.record_for(space);
  state.free_record(target);
  std::erase_if(state.records, [](const detail::space_record& r) { return !r.allocated; });
}

void buffer::deep_copy_from(const buffer& source) {
  if (state_ == source.state_) return;
  token source_holder;
  token target_holder;
  // Take the two holds in a fixed (address) order, so that two threads copying in
  // opposite directions cannot each hold one and wait for the other.
  auto hold_source = [&] {
    std::unique_lock lock(source.state_->mutex);
    source.state_->acquire(lock, source_holder, access_mode::read, source.state_);
  };
  auto hold_target = [&] {
    std::unique_lock lock(state_->mutex);
    state_->acquire(lock, target_holder, access_mode::write, state_);
  };
  if (std::less<>{}(source.state_.get(), state_.get())) {
    hold_source();
    hold_target();
  } else {
    hold_target();
    hold_source();
  }

  // The copy is made in a space where the source is valid, preferring a device.
  memory_space space = host_space;
  std::size_t bytes = 0;
  std::size_t meaningful = 0;
  const void* from = nullptr;
  {
    std::lock_guard guard(source.state_->mutex);
    auto& src = *source.state_;
    bytes = src.size_bytes;
    meaningful = src.meaningful_bytes;
    for (const auto& record : src.records)
      if (record.valid && (!record.space.is_host() || space == host_space)) space = record.space;
    if (meaningful > 0) from = src.prepare(space, access_mode::read, true);
  }
  std::lock_guard guard(state_->mutex);
  state_->replace_contents(space, bytes, meaningful, space, from);
}

space_status buffer::status(memory_space space) const {
  std::lock_guard guard(state_->mutex);
  const detail::space_record* record = state_->find_record(space);
  if (record == nullptr) return space_status{.space = space};
  return space_status{.space = space,
                      .allocated = record->allocated,
                      .valid = record->valid,
                      .pinned = record->pinned,
                      .allocated_bytes = record->allocated_bytes};
}

std::vector<space_status> buffer::statuses() const {
  std::vector<memory_space> spaces;
  {
    std::lock_guard guard(state_->mutex);
    for (const auto& record : state_->records) spaces.push_back(record.space);
  }
  std::vector<space_status> result;
  for (auto space : spaces) result.push_back(status(space));
  return result;
}

std::size_t buffer::waiting_requests() const {
  std::lock_guard guard(state_->mutex);
  return state_->queue.size();
}

std::size_t buffer::holders() const {
  std::lock_guard guard(state_->mutex);
  return state_->holders.size();
}

}  // namespace funcmesh
