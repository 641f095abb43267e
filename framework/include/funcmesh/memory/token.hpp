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
// token_error instead of deadlocking.
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
