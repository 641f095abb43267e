// The errors of the memory layer: allocation failures (naming the bytes and the space),
// unknown or absent devices, token misuse that would deadlock, and index checks.
#pragma once

#include <cstddef>
#include <string>

#include <funcmesh/core/error.hpp>
#include <funcmesh/core/index.hpp>
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

// An index outside [0, size) in a view with checks enabled (debug builds).
class index_error : public error {
 public:
  index_error(index_t index, index_t size);
};

namespace detail {
[[noreturn]] void throw_index_error(index_t index, index_t size);
}  // namespace detail

}  // namespace funcmesh
