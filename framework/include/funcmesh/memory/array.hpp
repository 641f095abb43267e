// array<T>: a typed handle over one buffer (size in elements, resize with preserve,
// views for kernels). Copies share the data; clone() makes an independent copy.
// read()/write() return scoped accesses that hold their own token.
#pragma once

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include <funcmesh/core/index.hpp>
#include <funcmesh/memory/buffer.hpp>
#include <funcmesh/memory/view.hpp>

namespace funcmesh {

namespace detail {
// count * element_size in bytes; throws funcmesh::error on a negative count or overflow.
std::size_t checked_bytes(index_t count, std::size_t element_size);
// Throws unless `bytes` is a whole number of elements.
index_t checked_count(std::size_t bytes, std::size_t element_size);
}  // namespace detail

template <class T>
class array;

// A view together with the token that keeps it valid: for host code and tests.
template <class T>
class scoped_access {
 public:
  scoped_access(scoped_access&&) noexcept = default;
  scoped_access& operator=(scoped_access&&) noexcept = default;

  funcmesh::view<T> view() const { return view_; }
  T& operator[](index_t index) const { return view_[index]; }
  T* data() const { return view_.data(); }
  index_t size() const { return view_.size(); }
  T* begin() const { return view_.begin(); }
  T* end() const { return view_.end(); }
  // Ends the access early; the view must not be used afterwards.
  void release() noexcept { holder_.release(); }

 private:
  friend class array<std::remove_const_t<T>>;
  scoped_access() = default;
  token holder_;
  funcmesh::view<T> view_;
};

template <class T>
using read_access = scoped_access<const T>;
template <class T>
using write_access = scoped_access<T>;

template <class T>
class array {
  static_assert(std::is_trivially_copyable_v<T>,
                "array<T> holds raw bytes that move between spaces: T must be trivially copyable");
  static_assert(!std::is_const_v<T>, "array<const T>: use read views for read-only access");

 public:
  using value_type = T;

  array() = default;
  explicit array(index_t size) : buffer_(detail::checked_bytes(size, sizeof(T))) {}
  array(index_t size, const T& value) : array(size) { std::ranges::fill(write(), value); }
  array(std::initializer_list<T> values)
      : array(std::span<const T>(values.begin(), values.size())) {}
  explicit array(std::span<const T> values) : array(static_cast<index_t>(values.size())) {
    std::ranges::copy(values, overwrite().begin());
  }
  // Views the bytes of an existing buffer (shared, not copied) as elements of T.
  explicit array(buffer storage) : buffer_(std::move(storage)) {
    detail::checked_count(buffer_.size_bytes(), sizeof(T));
  }

  // Takes ownership of `size` elements at `pointer` in `space`; `release` is called once.
  static array adopt(T* pointer, index_t size, memory_space space, deleter release) {
    std::size_t bytes = 0;
    try {
      bytes = detail::checked_bytes(size, sizeof(T));
    } catch (...) {
      if (release) release(pointer);  // ownership passed, as with buffer::adopt
      throw;
    }
    return array(buffer::adopt(pointer, bytes, space, std::move(release)));
  }

  index_t size() const { return static_cast<index_t>(buffer_.size_bytes() / sizeof(T)); }
  bool empty() const { return size() == 0; }
  void resize(index_t size, preserve keep = preserve::no) {
    buffer_.set_size(detail::checked_bytes(size, sizeof(T)), keep);
  }

  view<const T> read_view(memory_space space, token& holder) const {
    return {static_cast<const T*>(buffer_.read_pointer(space, holder)), size()};
  }
  view<T> write_view(memory_space space, token& holder) {
    return {static_cast<T*>(buffer_.write_pointer(space, holder)), size()};
  }
  view<T> overwrite_view(memory_space space, token& holder) {
    return {static_cast<T*>(buffer_.overwrite_pointer(space, holder)), size()};
  }

  read_access<T> read(memory_space space = host_space) const {
    read_access<T> access;
    access.view_ = read_view(space, access.holder_);
    return access;
  }
  write_access<T> write(memory_space space = host_space) {
    write_access<T> access;
    access.view_ = write_view(space, access.holder_);
    return access;
  }
  write_access<T> overwrite(memory_space space = host_space) {
    write_access<T> access;
    access.view_ = overwrite_view(space, access.holder_);
    return access;
  }

  std::vector<T> to_vector() const {
    auto values = read();
    return std::vector<T>(values.begin(), values.end());
  }
  // An independent copy, made in a space where this array is valid.
  array clone() const {
    array copy;
    copy.buffer_.deep_copy_from(buffer_);
    return copy;
  }

  buffer& storage() { return buffer_; }
  const buffer& storage() const { return buffer_; }

 private:
  buffer buffer_;
};

}  // namespace funcmesh
