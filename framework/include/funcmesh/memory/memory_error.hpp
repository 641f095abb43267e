// The memory layer's errors: an allocation that failed (naming the bytes and the space),
// a device that is absent or not built in, a token request that can never be granted.
// They derive from funcmesh::error (core/error.hpp), like every error funcmesh throws.
#pragma once

#include <cstddef>
#include <string>

#include <funcmesh/core/error.hpp>
#include <funcmesh/memory/memory_space.hpp>

namespace funcmesh {

// An allocation failed (or its size overflowed). what() names the bytes and the space.
class allocation_error : public error {
 public:
  allocation_error(std::size_t bytes, memory_space space, const std::string& reason);
  std::size_t bytes() const noexcept { return bytes_; }
  memory_space space() const noexcept { return space_; }

 private:
  std::size_t bytes_;
  memory_space space_;
};

// A space of a kind that is not built in, or a device that is absent.
class device_error : public error {
 public:
  using error::error;
};

// A token request that can never be granted (it would wait on a lock held by its own
// thread), or a token used after its buffer went away.
class token_error : public error {
 public:
  using error::error;
};

}  // namespace funcmesh
