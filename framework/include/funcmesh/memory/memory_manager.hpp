// memory_manager: the one runtime interface through which device memory is allocated
// and copied. Code that only moves data calls it and needs no device compiler; a
// CPU-only build has the host manager alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string_view>
#include <vector>

#include <funcmesh/memory/memory_space.hpp>

namespace funcmesh {

// One manager per space kind; it serves every device of that kind. Every operation is
// synchronous: when it returns, the bytes are where they were asked to be.
class memory_manager {
 public:
  virtual ~memory_manager() = default;

  // The kind's name as it appears in messages and in to_string(space): "host", "cuda".
  virtual std::string_view name() const noexcept = 0;
  // Devices of this kind that can be used now (0 when the driver or the device is absent).
  virtual int device_count() const = 0;
  // Why device_count() is 0, for error messages ("" when devices are present).
  virtual std::string absence_reason() const { return {}; }

  // Throws allocation_error naming the bytes and the space. allocate(d, 0) may
  // return nullptr.
  virtual void* allocate(int device, std::size_t bytes) = 0;
  virtual void deallocate(int device, void* pointer) noexcept = 0;

  virtual void copy_to_host(int device, void* host_destination, const void* source,
                            std::size_t bytes) = 0;
  virtual void copy_from_host(int device, void* destination, const void* host_source,
                              std::size_t bytes) = 0;
  // Between two devices of this kind (or within one): direct, never through the host.
  virtual void copy_between(int destination_device, void* destination, int source_device,
                            const void* source, std::size_t bytes) = 0;

  // Bytes that can still be allocated on `device` now: cudaMemGetInfo's free memory on
  // CUDA, a simulated device's capacity less what is allocated there, the host's
  // MemAvailable. Code that sizes its allocations by the room left (paged arrays) asks
  // this; a kind that cannot tell returns unknown_free_bytes (the default).
  static constexpr std::size_t unknown_free_bytes = std::numeric_limits<std::size_t>::max();
  virtual std::size_t free_bytes(int /*device*/) const { return unknown_free_bytes; }

  // Makes `device` current for the calling host thread (cudaSetDevice); the MPI
  // environment calls it once per rank when it binds the rank's GPU, so that later
  // device guards find it current and switch nothing. Throws device_error on failure.
  // The default does nothing: a kind without a current device needs no selection.
  virtual void select_device(int /*device*/) {}
  // A queue of this kind's device work beside the one every other operation uses (on
  // CUDA: the rank's second stream, a cudaStream_t): it runs after everything issued so
  // far on `after` (an executor's stream; nullptr: the main queue), and what is issued on
  // it then runs beside the later work of the main queue until the host joins it. Halo
  // staging uses it (memory/detail/side_queue.hpp). nullptr (the default): this kind has
  // no second queue; copy_to_host_on copies at once.
  virtual void* fork_side_queue(int /*device*/, void* /*after*/) { return nullptr; }
  // A device-to-host copy issued on `queue` (from fork_side_queue, or nullptr): the bytes
  // are at `host_destination` once join_side_queue(queue) returns, not before.
  virtual void copy_to_host_on(void* /*queue*/, int device, void* host_destination,
                               const void* source, std::size_t bytes) {
    copy_to_host(device, host_destination, source, bytes);
  }
  // The host waits for everything issued on `queue`. Throws device_error naming `why` (a
  // fault of the work on it surfaces here).
  virtual void join_side_queue(int /*device*/, void* /*queue*/, const char* /*why*/) {}

  // Page-locked host memory that this kind's transfers (and MPI staging) use at full
  // speed; nullptr when the manager has no pinned allocator (the host manager then
  // pins with mlock).
  virtual void* allocate_pinned_host(std::size_t /*bytes*/) { return nullptr; }
  virtual void deallocate_pinned_host(void* /*pointer*/) noexcept {}
};

// The manager of a space's kind; throws device_error for a kind that is not built in or
// registered.
memory_manager& memory_manager_for(space_kind kind);

// Throws device_error unless memory can be placed in this space now (the kind exists
// and the device index is in range); the message names the space and, when no device
// is visible, the backend's reason.
void require_space(memory_space space);

// Adds a manager for a new kind of space (an accelerator funcmesh does not build in, or
// a simulated device in tests) and returns its kind. Managers live until exit.
space_kind register_memory_manager(std::unique_ptr<memory_manager> manager);

// memory_manager_for(space.kind).free_bytes(space.device), after require_space(space).
std::size_t free_bytes(memory_space space);

// The host and every device of every registered kind that is visible now.
std::vector<memory_space> available_spaces();

namespace detail {
// Page-locked host memory, for fast device transfers and MPI staging: from the first
// device manager that provides it (owner), else mlock'ed pages (owner == nullptr).
// Throws allocation_error when the memory cannot be pinned (RLIMIT_MEMLOCK too small).
struct pinned_host_allocation {
  void* pointer = nullptr;
  memory_manager* owner = nullptr;
};
pinned_host_allocation allocate_pinned_host(std::size_t bytes);
// Pinned allocations made so far by this process (tests check that staging takes them).
std::uint64_t pinned_host_allocations();
void deallocate_pinned_host(pinned_host_allocation allocation, std::size_t bytes) noexcept;
}  // namespace detail

// Copies bytes between any two spaces; device to device of one kind goes direct.
void copy_bytes(memory_space destination_space, void* destination, memory_space source_space,
                const void* source, std::size_t bytes);

}  // namespace funcmesh
