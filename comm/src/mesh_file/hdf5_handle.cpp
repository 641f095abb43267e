// The shared HDF5 handle and status check (funcmesh/comm/detail/hdf5_handle.hpp).
#include <funcmesh/comm/detail/hdf5_handle.hpp>

#include <string>

#include <funcmesh/core/error.hpp>

namespace funcmesh::detail {

hdf5_handle& hdf5_handle::operator=(hdf5_handle&& other) noexcept {
  if (this != &other) {
    reset();
    id_ = other.id_;
    close_ = other.close_;
    other.id_ = H5I_INVALID_HID;
  }
  return *this;
}

void hdf5_handle::reset() noexcept {
  if (id_ >= 0 && close_ != nullptr) close_(id_);
  id_ = H5I_INVALID_HID;
}

hid_t checked(hid_t status, std::string_view who, const std::filesystem::path& file,
              const char* call) {
  if (status < 0) throw error(std::string(who) + ": " + file.string() + ": " + call + " failed");
  return status;
}

}  // namespace funcmesh::detail
