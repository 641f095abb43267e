// The registry of memory managers, one per space kind: the built-in ones (generated
// list: host, and cuda where built) and any registered at run time.
#include <funcmesh/memory/memory_manager.hpp>

#include <array>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>

#include <funcmesh/core/error.hpp>
#include <funcmesh/memory/memory_error.hpp>
#include <funcmesh/profile/device_activity.hpp>

namespace funcmesh {

namespace detail {
std::vector<std::unique_ptr<memory_manager>> make_builtin_memory_managers();  // generated
void* pin_host_pages(std::size_t bytes);                                      // host manager
void unpin_host_pages(void* pointer, std::size_t bytes) noexcept;
}  // namespace detail

namespace {

// Lookups happen on every pointer request, so they read atomics without a lock; a
// slot, once published, never changes (managers live until exit).
class registry {
 public:
  registry() {
    for (auto& manager : detail::make_builtin_memory_managers()) {
      const int kind = manager->name() == "host" ? 0 : manager->name() == "cuda" ? 1 : -1;
      if (kind < 0)
        throw device_error("unknown built-in memory manager " + std::string(manager->name()));
      publish(kind, std::move(manager));
    }
  }

  memory_manager* find(space_kind kind) const {
    const auto index = static_cast<int>(kind);
    if (index >= max_space_kinds) return nullptr;
    return slots_[index].load(std::memory_order_acquire);
  }

  space_kind add(std::unique_ptr<memory_manager> manager) {
    std::lock_guard guard(mutex_);
    if (next_custom_ >= max_space_kinds)
      throw device_error("cannot register memory manager '" + std::string(manager->name()) +
                         "': all " + std::to_string(max_space_kinds) + " space kinds are taken");
    for (const auto& owned : owned_)
      if (owned->name() == manager->name())
        throw device_error("a memory manager named '" + std::string(manager->name()) +
                           "' is already registered");
    const int kind = next_custom_++;
    publish(kind, std::move(manager));
    return static_cast<space_kind>(kind);
  }

  std::vector<memory_manager*> all() const {
    std::vector<memory_manager*> result;
    for (const auto& slot : slots_)
      if (memory_manager* manager = slot.load(std::memory_order_acquire)) result.push_back(manager);
    return result;
  }

 private:
  void publish(int kind, std::unique_ptr<memory_manager> manager) {
    slots_[kind].store(manager.get(), std::memory_order_release);
    owned_.push_back(std::move(manager));
  }

  std::mutex mutex_;  // serializes registrations
  std::array<std::atomic<memory_manager*>, max_space_kinds> slots_{};
  std::vector<std::unique_ptr<memory_manager>> owned_;
  int next_custom_ = 2;
};

// Never destroyed: buffers with static storage may free memory during exit, after
// every function-local static would have been destroyed.
registry& the_registry() {
  static registry* instance = new registry;
  return *instance;
}

const char* kind_hint(space_kind kind) {
  return kind == space_kind::cuda ? " (configure with -DFUNCMESH_ENABLE_CUDA=ON to build it)" : "";
}

}  // namespace

memory_manager& memory_manager_for(space_kind kind) {
  memory_manager* manager = the_registry().find(kind);
  if (manager == nullptr)
    throw device_error("memory space kind " + std::to_string(static_cast<int>(kind)) +
                       (kind == space_kind::cuda ? " (cuda)" : "") +
                       " is not built into this funcmesh" + kind_hint(kind));
  return *manager;
}

void require_space(memory_space space) {
  memory_manager& manager = memory_manager_for(space.kind);
  const int count = manager.device_count();
  if (space.device < 0 || space.device >= count) {
    std::string message = "memory space " + std::string(manager.name()) + ":" +
                          std::to_string(space.device) + " is not available: ";
    if (count == 0) {
      const std::string reason = manager.absence_reason();
      message += "no " + std::string(manager.name()) + " device is visible" +
                 (reason.empty() ? "" : " (" + reason + ")");
    } else {
      message += std::to_string(count) + " " + std::string(manager.name()) +
                 " device(s) visible, numbered from 0";
    }
    throw device_error(message);
  }
}

std::size_t free_bytes(memory_space space) {
  require_space(space);
  return memory_manager_for(space.kind).free_bytes(space.device);
}

space_kind register_memory_manager(std::unique_ptr<memory_manager> manager) {
  if (!manager) throw device_error("register_memory_manager: null manager");
  return the_registry().add(std::move(manager));
}

std::vector<memory_space> available_spaces() {
  std::vector<memory_space> spaces{host_space};
  for (int kind = 1; kind < max_space_kinds; ++kind) {
    memory_manager* manager = the_registry().find(static_cast<space_kind>(kind));
    if (manager == nullptr) continue;
    for (int device = 0; device < manager->device_count(); ++device)
      spaces.push_back(
          memory_space{static_cast<space_kind>(kind), static_cast<std::int16_t>(device)});
  }
  return spaces;
}

namespace detail {

namespace {
std::atomic<std::uint64_t> pinned_allocations{0};
}  // namespace

std::uint64_t pinned_host_allocations() { return pinned_allocations.load(); }

pinned_host_allocation allocate_pinned_host(std::size_t bytes) {
  pinned_allocations.fetch_add(1, std::memory_order_relaxed);
  for (memory_manager* manager : the_registry().all()) {
    if (manager->name() == "host" || manager->device_count() == 0) continue;
    if (void* pointer = manager->allocate_pinned_host(bytes)) return {pointer, manager};
  }
  return {pin_host_pages(bytes), nullptr};
}

void deallocate_pinned_host(pinned_host_allocation allocation, std::size_t bytes) noexcept {
  if (allocation.owner != nullptr)
    allocation.owner->deallocate_pinned_host(allocation.pointer);
  else
    unpin_host_pages(allocation.pointer, bytes);
}

}  // namespace detail

void copy_bytes(memory_space destination_space, void* destination, memory_space source_space,
                const void* source, std::size_t bytes) {
  if (bytes == 0) return;
  if (destination_space.is_host() && source_space.is_host()) {
    std::memcpy(destination, source, bytes);
  } else if (destination_space.is_host()) {
    detail::record_copy(true, bytes);
    memory_manager_for(source_space.kind)
        .copy_to_host(source_space.device, destination, source, bytes);
  } else if (source_space.is_host()) {
    detail::record_copy(false, bytes);
    memory_manager_for(destination_space.kind)
        .copy_from_host(destination_space.device, destination, source, bytes);
  } else if (destination_space.kind == source_space.kind) {
    memory_manager_for(destination_space.kind)
        .copy_between(destination_space.device, destination, source_space.device, source, bytes);
  } else {
    // Two different device kinds: no direct path, so stage through the host.
    auto& host = memory_manager_for(space_kind::host);
    void* staging = host.allocate(0, bytes);
    try {
      copy_bytes(host_space, staging, source_space, source, bytes);
      copy_bytes(destination_space, destination, host_space, staging, bytes);
    } catch (...) {
      host.deallocate(0, staging);
      throw;
    }
    host.deallocate(0, staging);
  }
}

}  // namespace funcmesh
