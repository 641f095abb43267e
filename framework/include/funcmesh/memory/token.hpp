// token: proof that its holder may use pointers it got from buffers. A buffer is held
// by many reading tokens or one writing token, granted in FIFO order; the hold lasts
// until the token is released or destroyed.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace funcmesh {

namespace detail {
struct buffer_state;
}

// A token belongs to the thread that uses it; one thread may hold several tokens. A
// request that would wait on a hold of another token of the same thread throws
// token_error instead of deadlocking. A token that holds buffers may move to another
// thread, but that thread should use it (request a pointer) before it relies on the
// deadlock check: the check knows a hold's thread from its last request.
//
// A token that reads a buffer may then write it: it waits until the other readers have
// left. If another reader is already waiting to write, this token gives up its read
// hold and becomes the next writer instead (its earlier pointers may see changes made
// by that writer, so request them again after write_pointer returns).
class token {
 public:
  token();
  ~token();
  token(const token&) = delete;
  token& operator=(const token&) = delete;
  token(token&& other) noexcept;
  token& operator=(token&& other) noexcept;

  // Gives up every hold; pointers obtained with this token may no longer be used.
  void release() noexcept;

  // Number of buffers this token holds now.
  std::size_t held_buffers() const noexcept { return held_.size(); }

  std::uint64_t id() const noexcept { return id_; }

 private:
  friend struct detail::buffer_state;
  std::uint64_t id_;
  std::vector<std::shared_ptr<detail::buffer_state>> held_;
};

}  // namespace funcmesh
