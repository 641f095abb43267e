// The root of funcmesh's exception hierarchy: every error funcmesh throws derives from
// funcmesh::error, so an application can catch all of them in one place.
#pragma once

#include <stdexcept>
#include <string>

namespace funcmesh {

class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace funcmesh
