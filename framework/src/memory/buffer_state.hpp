// Private to the memory layer: the shared state behind buffer and token. One mutex
// guards the per-space records and the FIFO reader/writer queue; coherence work (an
// allocation, a copy) runs under it, so two readers never copy the same bytes twice.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <funcmesh/memory/buffer.hpp>
#include <funcmesh/memory/memory_manager.hpp>

namespace funcmesh::detail {

enum class access_mode : std::uint8_t { read, write };

// The copy of the contents in one space.
struct space_record {
  memory_space space;
  void* pointer = nullptr;
  std::size_t allocated_bytes = 0;
  bool allocated = false;  // pointer may be null for 0 bytes
  bool valid = false;
  bool pinned = false;
  memory_manager* pinned_owner = nullptr;  // who allocated pinned host memory
  deleter adopted_release{};               // set: the memory is the user's
};

struct lock_holder {
  std::uint64_t token_id;
  access_mode mode;
  std::thread::id thread;
  bool upgrading = false;  // a reader waiting to become the writer
};

struct lock_waiter {
  std::uint64_t token_id;
  access_mode mode;
  std::thread::id thread;
  bool granted = false;
};

struct buffer_state {
  buffer_state() = default;
  buffer_state(const buffer_state&) = delete;
  buffer_state& operator=(const buffer_state&) = delete;
  ~buffer_state();

  // --- the FIFO reader/writer lock (caller holds `mutex` through `lock`) ---
  void acquire(std::unique_lock<std::mutex>& lock, token& holder, access_mode mode,
               const std::shared_ptr<buffer_state>& self);
  void release_holder(std::uint64_t token_id) noexcept;  // takes the mutex itself
  bool compatible(access_mode mode) const;
  void grant_waiting();

  // --- coherence (caller holds `mutex` and a token hold of the right mode) ---
  space_record& record_for(memory_space space);
  const space_record* find_record(memory_space space) const;
  const space_record* valid_source_for(memory_space target) const;
  void* prepare(memory_space space, access_mode mode, bool copy_in);
  void allocate_record(space_record& record, std::size_t bytes);
  void reallocate_record(space_record& record, bool keep_contents);
  // A new valid copy in `space` of `bytes` bytes, the first `copied` taken from
  // `source`; on failure nothing is allocated and nothing else changes.
  space_record fresh_copy(memory_space space, std::size_t bytes, memory_space source_space,
                          const void* source, std::size_t copied);
  // Makes the contents a copy of `bytes` bytes (the first `meaningful` of them data) at
  // `source`, held in `space`; on failure the old contents stay as they were.
  void replace_contents(memory_space space, std::size_t bytes, std::size_t meaningful,
                        memory_space source_space, const void* source);
  void free_record(space_record& record) noexcept;
  void resize(std::size_t bytes, preserve keep);

  mutable std::mutex mutex;
  std::condition_variable changed;
  std::size_t size_bytes = 0;
  std::size_t meaningful_bytes = 0;  // leading bytes that carry data (0: uninitialized)
  bool want_pinned_host = false;
  std::vector<space_record> records;
  std::vector<lock_holder> holders;
  std::deque<lock_waiter*> queue;  // waiters live on their threads' stacks
};

}  // namespace funcmesh::detail
