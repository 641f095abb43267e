// buffer: an untyped block of bytes with one copy per memory space and lazy coherence
// between them (the VTK-m Buffer design). Not a template: compiled once into the
// library, so typed arrays stay thin and data movement needs no device compiler.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include <funcmesh/memory/memory_space.hpp>
#include <funcmesh/memory/token.hpp>

namespace funcmesh {

namespace detail {
struct buffer_state;
}

// Whether set_size keeps the contents that fit in the new size.
enum class preserve : bool { no = false, yes = true };

// Called exactly once with the adopted pointer, when the buffer lets go of it.
using deleter = std::function<void(void*)>;

// What is known about the copy of a buffer in one space.
struct space_status {
  memory_space space;
  bool allocated = false;  // memory is held in this space
  bool valid = false;      // that memory holds the current contents
  bool pinned = false;     // host memory only: page-locked
  std::size_t allocated_bytes = 0;
};

// Copies of a buffer share its state (like a shared pointer): a write through one copy
// is seen through every other. Every operation is thread-safe; pointers are valid while
// the token they were obtained with holds the buffer.
class buffer {
 public:
  buffer();
  explicit buffer(std::size_t bytes);
  // Copies (and moves, which copy) share the state, so no buffer is ever left empty.
  buffer(const buffer&) = default;
  buffer& operator=(const buffer&) = default;

  // Adopts memory the caller allocated in `space` (host or device); `release` is called
  // exactly once, when the last copy of the buffer is destroyed or the memory is
  // replaced (a resize, a device reset), or at once if adopt throws (an absent
  // device): ownership always passes, as with std::shared_ptr. The contents are taken
  // as valid.
  static buffer adopt(void* pointer, std::size_t bytes, memory_space space, deleter release);

  std::size_t size_bytes() const;

  // Records the new size; no memory moves until a pointer is requested. With
  // preserve::yes the first min(old, new) bytes survive (the rest is uninitialized);
  // with preserve::no every copy is dropped and the contents are uninitialized. The
  // same size as now changes nothing. Needs the buffer for writing: waits for other
  // holders, or uses `holder` if it holds it.
  void set_size(std::size_t bytes, preserve keep, token& holder);
  void set_size(std::size_t bytes, preserve keep = preserve::no);

  // A pointer to the current contents in `space`, allocating and copying as needed;
  // other valid copies stay valid. Holds the buffer for reading with `holder`.
  const void* read_pointer(memory_space space, token& holder) const;
  // As read_pointer, then every other copy becomes invalid. Holds it for writing.
  void* write_pointer(memory_space space, token& holder);
  // For writing, without copying the old contents into `space` first: for code that
  // overwrites every byte. Every other copy becomes invalid.
  void* overwrite_pointer(memory_space space, token& holder);

  // Host allocations become page-locked (or not) from the next host pointer request;
  // a valid host copy is moved into the new kind of memory then.
  void set_pinned_host(bool pinned);
  bool pinned_host() const;

  // Frees the copy in `space`. When it is the only valid copy of a device, the contents
  // move to the host first; releasing the host's only valid copy throws (it would lose
  // the data: set_size(0) is the way to drop contents).
  void release_space(memory_space space);

  // Makes this buffer an independent copy of `source`'s contents; the copy is made in
  // a space where `source` is valid (device to device when it is valid on a device).
  void deep_copy_from(const buffer& source);

  // Introspection (for tests, diagnostics and tools).
  space_status status(memory_space space) const;
  std::vector<space_status> statuses() const;
  bool is_allocated(memory_space space) const { return status(space).allocated; }
  bool is_valid(memory_space space) const { return status(space).valid; }
  std::size_t waiting_requests() const;  // token requests queued on this buffer
  std::size_t holders() const;           // tokens that hold this buffer now
  bool shares_with(const buffer& other) const { return state_ == other.state_; }

 private:
  std::shared_ptr<detail::buffer_state> state_;
};

}  // namespace funcmesh
