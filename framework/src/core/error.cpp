// The messages of the errors whose constructors compose them.
#include <funcmesh/core/error.hpp>

#include <string>

namespace funcmesh {

index_error::index_error(index_t index, index_t size)
    : error("index " + std::to_string(index) + " outside [0, " + std::to_string(size) + ")") {}

namespace detail {
void throw_index_error(index_t index, index_t size) { throw index_error(index, size); }
}  // namespace detail

}  // namespace funcmesh
