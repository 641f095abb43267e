// The fluxes the face-loop suites share (tests/faces without MPI, tests/comm's distributed
// ones): functors, so that they run in device code too, written once.
#pragma once

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/faces/face_set.hpp>

namespace face_cases {

namespace fm = funcmesh;

// Diffusion plus an oriented term, so a wrong normal sign shows.
struct flux {
  FUNCMESH_DEVICE double operator()(double ul, double ur, const fm::face_view& f) const {
    return 0.7 * (ur - ul) * f.area / f.distance - 0.3 * f.normal[0] * 0.5 * (ul + ur) * f.area;
  }
};
struct hot {
  FUNCMESH_DEVICE double operator()(double u, const fm::face_view& f) const {
    return 0.7 * (1.0 - u) * f.area / f.distance;
  }
};
struct wall {
  FUNCMESH_DEVICE double operator()(double, const fm::face_view&) const { return 0.0; }
};
// A cell's own value times its perimeter (surface), face by face.
struct times_area {
  FUNCMESH_DEVICE double operator()(double u, const fm::face_view& f) const { return u * f.area; }
};

}  // namespace face_cases
