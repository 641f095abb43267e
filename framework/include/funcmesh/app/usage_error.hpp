// usage_error: a command line or an option value that cannot run (an unknown option, a
// value that is not a number, --n 0). Programs on funcmesh::app exit 2 with its message
// alone; under MPI every rank parses the same arguments, so every rank throws it alike.
#pragma once

#include <funcmesh/core/error.hpp>

namespace funcmesh::app {

class usage_error : public error {
 public:
  using error::error;
};

}  // namespace funcmesh::app
