// Names of memory spaces, both ways.
#include <funcmesh/memory/memory_space.hpp>

#include <charconv>
#include <string>

#include <funcmesh/core/error.hpp>
#include <funcmesh/memory/memory_error.hpp>
#include <funcmesh/memory/memory_manager.hpp>

namespace funcmesh {

std::string to_string(memory_space space) {
  if (space.is_host()) return "host";
  std::string kind_name;
  try {
    kind_name = memory_manager_for(space.kind).name();
  } catch (const device_error&) {
    kind_name = "kind" + std::to_string(static_cast<int>(space.kind));
  }
  return kind_name + ":" + std::to_string(space.device);
}

memory_space parse_memory_space(std::string_view text) {
  if (text == "host") return host_space;
  const auto colon = text.find(':');
  const std::string_view kind_name = text.substr(0, colon);
  int device = 0;
  if (colon != std::string_view::npos) {
    const std::string_view digits = text.substr(colon + 1);
    auto [end, status] = std::from_chars(digits.data(), digits.data() + digits.size(), device);
    if (digits.empty() || status != std::errc{} || end != digits.data() + digits.size() ||
        device < 0 || device > 32767)
      throw device_error("memory space '" + std::string(text) +
                         "': the device after ':' must be a number from 0 to 32767");
  }
  for (int kind = 1; kind < max_space_kinds; ++kind) {
    try {
      if (memory_manager_for(static_cast<space_kind>(kind)).name() == kind_name)
        return memory_space{static_cast<space_kind>(kind), static_cast<std::int16_t>(device)};
    } catch (const device_error&) {
    }
  }
  std::string known = "host";
  for (auto space : available_spaces())
    if (!space.is_host()) known += ", " + to_string(space);
  throw device_error("memory space '" + std::string(text) +
                     "' is not built into this funcmesh (available: " + known + ")");
}

}  // namespace funcmesh
