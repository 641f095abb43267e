// memory_space: where bytes live (the host, or device d of a backend such as CUDA).
// A space is a small value (kind, device); the memory manager of its kind allocates
// and copies in it.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

namespace funcmesh {

// Kinds of memory. host and cuda are built in; further kinds (another accelerator, or
// the simulated device the tests use) are handed out by register_memory_manager().
enum class space_kind : std::uint8_t { host = 0, cuda = 1 };

inline constexpr int max_space_kinds = 16;

struct memory_space {
  space_kind kind = space_kind::host;
  std::int16_t device = 0;

  friend constexpr bool operator==(memory_space, memory_space) = default;
  friend constexpr auto operator<=>(memory_space, memory_space) = default;

  constexpr bool is_host() const { return kind == space_kind::host; }
};

inline constexpr memory_space host_space{space_kind::host, 0};

constexpr memory_space cuda_space(int device = 0) {
  return memory_space{space_kind::cuda, static_cast<std::int16_t>(device)};
}

// "host", "cuda:0", or "<kind name>:<device>" for registered kinds.
std::string to_string(memory_space space);

// Parses what to_string prints ("host", "cuda", "cuda:1", "sim:0"); throws
// device_error naming the text when it is not a space of a registered kind. Whether
// the device exists is checked when memory is first requested there.
memory_space parse_memory_space(std::string_view text);

}  // namespace funcmesh
