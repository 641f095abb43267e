#include <funcmesh/expr/grid_function_base.hpp>

#include <utility>

#include <funcmesh/expr/gather_scatter.hpp>
#include <funcmesh/memory/array.hpp>

namespace funcmesh {

grid_function_base::grid_function_base(std::string name, index_t owned_size, index_t total_size,
                                       std::size_t element_size)
    : name_(std::move(name)),
      owned_size_(owned_size),
      total_size_(total_size),
      element_size_(element_size) {
  if (owned_size < 0 || total_size < owned_size) {
    throw error("funcmesh::grid_function: " + describe() + ": owned size " +
                std::to_string(owned_size) + " and total size " + std::to_string(total_size) +
                " (need 0 <= owned <= total)");
  }
  storage_.set_size(detail::checked_bytes(total_size, element_size));
}

grid_function_base::grid_function_base(const grid_function_base& other)
    : halo_source(other),
      name_(other.name_),
      owned_size_(other.owned_size_),
      total_size_(other.total_size_),
      element_size_(other.element_size_),
      write_count_(0) {
  storage_.deep_copy_from(other.storage_);
}

grid_function_base& grid_function_base::operator=(const grid_function_base& other) {
  if (this == &other) return *this;
  // Sizes follow the source (this is a value copy); the name stays: it names this
  // variable in messages and output.
  owned_size_ = other.owned_size_;
  total_size_ = other.total_size_;
  element_size_ = other.element_size_;
  storage_.deep_copy_from(other.storage_);
  mark_written();
  return *this;
}

grid_function_base& grid_function_base::operator=(grid_function_base&& other) noexcept {
  if (this == &other) return *this;
  owned_size_ = other.owned_size_;
  total_size_ = other.total_size_;
  element_size_ = other.element_size_;
  storage_ = std::move(other.storage_);
  ++write_count_;
  ++other.write_count_;
  return *this;
}

void grid_function_base::swap_with(grid_function_base& other) noexcept {
  std::swap(owned_size_, other.owned_size_);
  std::swap(total_size_, other.total_size_);
  std::swap(element_size_, other.element_size_);
  std::swap(storage_, other.storage_);
  // Both now hold values the other wrote: count a write on each so halo state is redone.
  ++write_count_;
  ++other.write_count_;
}

std::string grid_function_base::describe() const {
  return name_.empty() ? std::string("an unnamed grid function") : "grid function '" + name_ + "'";
}

// The halo plan validated its lists when it was built: list_checked skips that pass.
void grid_function_base::pack(const executor& on, const array<index_t>& indices,
                              buffer& packed) const {
  detail::gather_bytes(on, storage_, total_size_, indices.storage(), packed, element_size_, true);
}

void grid_function_base::unpack(const executor& on, const buffer& packed,
                                const array<index_t>& indices, token& holder) {
  detail::scatter_bytes(on, packed, indices.storage(), storage_, total_size_, element_size_, true,
                        &holder);
}

const binder::bound_target* binder::find(const grid_function_base& function) const {
  for (std::size_t k = 0; k < first_count_; ++k) {
    if (first_targets_[k].function->storage().shares_with(function.storage())) {
      return &first_targets_[k];
    }
  }
  for (const bound_target& bound : more_targets_) {
    if (bound.function->storage().shares_with(function.storage())) return &bound;
  }
  return nullptr;
}

void* binder::bind_target(grid_function_base& target, bool overwrite) {
  if (const bound_target* bound = find(target)) return bound->pointer;
  void* pointer = overwrite ? target.storage().overwrite_pointer(space_, *holder_)
                            : target.storage().write_pointer(space_, *holder_);
  if (first_count_ < first_targets_.size()) {
    first_targets_[first_count_++] = {&target, pointer};
  } else {
    more_targets_.push_back({&target, pointer});
  }
  return pointer;
}

const void* binder::bind_read(const grid_function_base& function) {
  if (const bound_target* bound = find(function)) return bound->pointer;
  return function.storage().read_pointer(space_, *holder_);
}

}  // namespace funcmesh
