// time_error: what the time-stepping layer throws for a scheme or a run it refuses (a
// tableau that is not explicit, both t_end and steps, a dt that is not a positive finite
// number). Derived from funcmesh::error, so one catch handles every funcmesh failure.
#pragma once

#include <funcmesh/core/error.hpp>

namespace funcmesh::time {

class time_error : public error {
 public:
  using error::error;
};

}  // namespace funcmesh::time
