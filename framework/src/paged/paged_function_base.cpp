// paged_function_base: names for messages.
#include <funcmesh/paged/paged_function_base.hpp>

#include <funcmesh/core/error.hpp>

#include <algorithm>
#include <string>
#include <utility>

namespace funcmesh {

namespace {
std::string description_of(const std::string& name) {
  return name.empty() ? std::string("an unnamed paged grid function")
                      : "paged grid function '" + name + "'";
}
}  // namespace

namespace detail {
void refuse_paged_sizes(index_t owned, index_t halo) {
  throw paged_error("funcmesh::paged_grid_function: " + std::to_string(owned) + " owned and " +
                    std::to_string(halo) +
                    " halo values: both must be >= 0 and their sum fit a 64-bit index");
}
}  // namespace detail

paged_function_base::paged_function_base(std::string name, std::size_t element_size,
                                         index_t owned_size)
    : name_(std::move(name)),
      description_(description_of(name_)),
      element_size_(element_size),
      owned_size_(owned_size) {}

paged_function_base::paged_function_base(paged_function_base&& other) noexcept
    : halo_source(other),
      name_(std::move(other.name_)),
      description_(std::move(other.description_)),
      element_size_(other.element_size_),
      owned_size_(other.owned_size_),
      write_count_(other.write_count()) {}

paged_function_base& paged_function_base::operator=(paged_function_base&& other) noexcept {
  name_ = std::move(other.name_);
  description_ = std::move(other.description_);
  element_size_ = other.element_size_;
  owned_size_ = other.owned_size_;
  // Other values: a halo exchanged for the old ones must not look clean for these.
  write_count_.store(std::max(write_count(), other.write_count()) + 1, std::memory_order_relaxed);
  return *this;
}

void paged_function_base::swap_values(paged_function_base& other) noexcept {
  std::swap(owned_size_, other.owned_size_);
  note_write();
  other.note_write();
}

void paged_function_base::pack(const executor&, const array<index_t>& indices,
                               buffer& packed) const {
  token holder;
  const auto list = indices.read_view(host_space, holder);
  read_elements({list.data(), static_cast<std::size_t>(list.size())},
                packed.overwrite_pointer(host_space, holder));
}

void paged_function_base::unpack(const executor&, const buffer& packed,
                                 const array<index_t>& indices, token&) {
  token holder;
  const auto list = indices.read_view(host_space, holder);
  write_elements({list.data(), static_cast<std::size_t>(list.size())},
                 packed.read_pointer(host_space, holder));
}

void paged_function_base::set_name(std::string name) {
  name_ = std::move(name);
  description_ = description_of(name_);
}

}  // namespace funcmesh
