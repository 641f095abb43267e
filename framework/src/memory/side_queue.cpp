// The side queue of a device (memory/detail/side_queue.hpp): the memory manager's second queue,
// counted as the memory layer counts its other copies.
#include <funcmesh/memory/detail/side_queue.hpp>

#include <funcmesh/memory/memory_manager.hpp>
#include <funcmesh/profile/device_activity.hpp>

namespace funcmesh::detail {

side_queue::side_queue(memory_space space, void* after) : space_(space) {
  if (!space.is_host()) {
    handle_ = memory_manager_for(space.kind).fork_side_queue(space.device, after);
  }
}

side_queue::~side_queue() {
  if (joined_ || space_.is_host()) return;
  try {
    memory_manager_for(space_.kind).join_side_queue(space_.device, handle_, "a side queue's end");
  } catch (...) {
  }
}

void side_queue::copy_to_host(void* host_destination, const void* source, std::size_t bytes) {
  if (bytes == 0) return;
  if (space_.is_host()) {
    copy_bytes(host_space, host_destination, host_space, source, bytes);
    return;
  }
  record_copy(true, bytes, handle_ == nullptr);
  memory_manager_for(space_.kind)
      .copy_to_host_on(handle_, space_.device, host_destination, source, bytes);
}

void side_queue::join(const char* why) {
  if (joined_) return;
  joined_ = true;
  if (space_.is_host() || handle_ == nullptr) return;
  record_synchronization();
  memory_manager_for(space_.kind).join_side_queue(space_.device, handle_, why);
}

}  // namespace funcmesh::detail
