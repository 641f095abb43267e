// What the time driver needs of a state type S, as ADL customization points: similar(u,
// name) makes a new S of u's layout (a stage register), values(u) is what expressions read.
// grid_function's overloads live here; dist_function's live in comm next to the type.
#pragma once

#include <concepts>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <funcmesh/expr/grid_function.hpp>

namespace funcmesh {

// A new grid function with u's owned and halo sizes; its values are unset.
template <class T, class Tag>
grid_function<T, Tag> similar(const grid_function<T, Tag>& u, std::string name) {
  return grid_function<T, Tag>(u.owned_size(), u.halo_size(), std::move(name));
}

// A grid function is its own expression operand.
template <class T, class Tag>
const grid_function<T, Tag>& values(const grid_function<T, Tag>& u) {
  return u;
}

namespace time {

// A state the driver can step: registers by similar(), operands by values(), and updates
// by assigning expressions (u = e, u += e).
template <class S>
concept state = std::movable<S> && requires(const S& u, S& w) {
  { similar(u, std::string{}) } -> std::same_as<S>;
  values(u);
  w = values(u) + 1.0 * values(u);
  w += 1.0 * values(u);
};

// The stage registers a scheme works in: `count` states of u's layout, made once per run.
template <class S>
class stage_storage {
 public:
  stage_storage() = default;
  stage_storage(const S& like, std::size_t count, const std::string& prefix) {
    registers_.reserve(count);
    for (std::size_t k = 0; k < count; ++k) {
      registers_.push_back(similar(like, prefix + ".stage" + std::to_string(k)));
    }
  }
  std::size_t size() const { return registers_.size(); }
  S& operator[](std::size_t k) { return registers_.at(k); }
  const S& operator[](std::size_t k) const { return registers_.at(k); }

 private:
  std::vector<S> registers_;
};

namespace detail {
// The state's name for register names ("u.stage0"), when its values have one.
template <class S>
std::string state_name(const S& u) {
  if constexpr (requires { values(u).name(); }) {
    const std::string& name = values(u).name();
    return name.empty() ? std::string("state") : name;
  } else {
    return "state";
  }
}
}  // namespace detail

}  // namespace time
}  // namespace funcmesh
