// Shared by funcmesh's HDF5 users (comm's mesh file, the checkpoint module): an owning
// hid_t handle, and the check that turns a negative HDF5 status into an error naming the
// file and the call. Includes <hdf5.h>: include it only where HDF5 is linked.
#pragma once

#include <hdf5.h>

#include <filesystem>
#include <string_view>

namespace funcmesh::detail {

// An hid_t closed by its own close function.
class hdf5_handle {
 public:
  hdf5_handle() = default;
  hdf5_handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  hdf5_handle(const hdf5_handle&) = delete;
  hdf5_handle& operator=(const hdf5_handle&) = delete;
  hdf5_handle(hdf5_handle&& other) noexcept : id_(other.id_), close_(other.close_) {
    other.id_ = H5I_INVALID_HID;
  }
  hdf5_handle& operator=(hdf5_handle&& other) noexcept;
  ~hdf5_handle() { reset(); }
  void reset() noexcept;
  // The id, no longer closed by this handle (for a close whose status matters).
  hid_t release() noexcept {
    const hid_t id = id_;
    id_ = H5I_INVALID_HID;
    return id;
  }
  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }

 private:
  hid_t id_ = H5I_INVALID_HID;
  herr_t (*close_)(hid_t) = nullptr;
};

// Throws error("<who>: <file>: <call> failed") when `status` is negative; returns it.
hid_t checked(hid_t status, std::string_view who, const std::filesystem::path& file,
              const char* call);

}  // namespace funcmesh::detail
