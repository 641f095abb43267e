// Coherence of a buffer's copies: lazy allocation, copy-in on first use in a space,
// invalidation on write, resize with preserve. Runs under the state's mutex.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <utility>

#include <funcmesh/core/error.hpp>

#include "buffer_state.hpp"

namespace funcmesh::detail {

buffer_state::~buffer_state() {
  for (auto& record : records) free_record(record);
}

space_record& buffer_state::record_for(memory_space space) {
  for (auto& record : records)
    if (record.space == space) return record;
  records.push_back(space_record{.space = space});
  return records.back();
}

const space_record* buffer_state::find_record(memory_space space) const {
  for (const auto& record : records)
    if (record.space == space) return &record;
  return nullptr;
}

// Prefer a device of the same kind (a direct device-to-device copy), then the host.
const space_record* buffer_state::valid_source_for(memory_space target) const {
  const space_record* best = nullptr;
  auto rank = [&](const space_record& r) {
    if (!target.is_host() && r.space.kind == target.kind) return 0;
    if (r.space.is_host()) return 1;
    return 2;
  };
  for (const auto& record : records) {
    if (!record.valid || record.space == target) continue;
    if (best == nullptr || rank(record) < rank(*best)) best = &record;
  }
  return best;
}

void buffer_state::allocate_record(space_record& record, std::size_t bytes) {
  const bool pinned = record.space.is_host() && want_pinned_host && bytes > 0;
  if (pinned) {
    auto allocation = allocate_pinned_host(bytes);
    record.pointer = allocation.pointer;
    record.pinned_owner = allocation.owner;
  } else {
    record.pointer = memory_manager_for(record.space.kind).allocate(record.space.device, bytes);
  }
  record.pinned = pinned;
  record.allocated = true;
  record.allocated_bytes = bytes;
  record.valid = false;
}

void buffer_state::free_record(space_record& record) noexcept {
  if (record.allocated) {
    if (record.adopted_release) {
      try {
        record.adopted_release(record.pointer);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "funcmesh: a buffer's deleter threw (ignored): %s\n", e.what());
      } catch (...) {
        std::fprintf(stderr, "funcmesh: a buffer's deleter threw (ignored)\n");
      }
    } else if (record.pinned) {
      deallocate_pinned_host({record.pointer, record.pinned_owner}, record.allocated_bytes);
    } else {
      memory_manager_for(record.space.kind).deallocate(record.space.device, record.pointer);
    }
  }
  record = space_record{.space = record.space};
}

space_record buffer_state::fresh_copy(memory_space space, std::size_t bytes,
                                      memory_space source_space, const void* source,
                                      std::size_t copied) {
  space_record fresh{.space = space};
  allocate_record(fresh, bytes);  // may throw: nothing has changed then
  try {
    copy_bytes(space, fresh.pointer, source_space, source, copied);
  } catch (...) {
    free_record(fresh);
    throw;
  }
  fresh.valid = true;
  return fresh;
}

void buffer_state::reallocate_record(space_record& record, bool keep_contents) {
  space_record fresh{.space = record.space};
  if (keep_contents) {
    fresh = fresh_copy(record.space, size_bytes, record.space, record.pointer,
                       std::min(meaningful_bytes, record.allocated_bytes));
  } else {
    allocate_record(fresh, size_bytes);
  }
  free_record(record);
  record = std::move(fresh);
}

void buffer_state::replace_contents(memory_space space, std::size_t bytes, std::size_t meaningful,
                                    memory_space source_space, const void* source) {
  require_space(space);
  space_record fresh = fresh_copy(space, bytes, source_space, source, meaningful);
  for (auto& record : records) free_record(record);
  records.clear();
  records.push_back(std::move(fresh));
  size_bytes = bytes;
  meaningful_bytes = meaningful;
}

void* buffer_state::prepare(memory_space space, access_mode mode, bool copy_in) {
  require_space(space);
  space_record& target = record_for(space);
  const bool want_pinned = space.is_host() && want_pinned_host && size_bytes > 0;
  if (target.allocated && (target.allocated_bytes != size_bytes || target.pinned != want_pinned))
    reallocate_record(target, target.valid && copy_in);
  if (!target.allocated) allocate_record(target, size_bytes);

  if (!target.valid) {
    if (copy_in && meaningful_bytes > 0) {
      const space_record* source = valid_source_for(space);
      if (source == nullptr)
        throw error("funcmesh internal error: a buffer holds data but no valid copy of it");
      copy_bytes(space, target.pointer, source->space, source->pointer,
                 std::min(meaningful_bytes, source->allocated_bytes));
    }
    target.valid = true;
  }
  if (mode == access_mode::write) {
    for (auto& other : records)
      if (other.space != space) other.valid = false;
    meaningful_bytes = size_bytes;
  }
  return target.pointer;
}

void buffer_state::resize(std::size_t bytes, preserve keep) {
  if (bytes == size_bytes) return;
  size_bytes = bytes;
  if (keep == preserve::no) {
    for (auto& record : records) free_record(record);
    records.clear();
    meaningful_bytes = 0;
    return;
  }
  meaningful_bytes = std::min(meaningful_bytes, bytes);
  // Valid copies are resized when next requested; stale ones are freed now.
  for (auto& record : records)
    if (!record.valid) free_record(record);
  std::erase_if(records, [](const space_record& r) { return !r.allocated; });
}

}  // namespace funcmesh::detail
