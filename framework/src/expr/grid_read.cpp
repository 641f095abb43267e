// grid_read: descriptions for messages, and the aliasing check every assignment makes.
#include <funcmesh/expr/grid_read.hpp>

#include <string>

namespace funcmesh {

std::string grid_read::describe() const {
  if (function != nullptr) return function->describe();
  return extent_name != nullptr ? std::string(extent_name) : std::string("a loop extent");
}

void check_not_aliased(const grid_function_base& target, const grid_read& read) {
  if (read.mode != read_mode::proxy || read.function == nullptr ||
      !target.storage().shares_with(read.function->storage())) {
    return;
  }
  throw aliasing_error(
      "funcmesh: " + target.describe() +
      " is assigned by an expression that also reads it through a proxy (at other "
      "indices): iterations would read values the same loop overwrites. Write into a "
      "second grid function and swap (funcmesh::swap(u, u_new)).");
}

}  // namespace funcmesh
