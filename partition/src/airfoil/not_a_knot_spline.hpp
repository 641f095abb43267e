// A cubic interpolating spline with not-a-knot end conditions (the third derivative is
// continuous at the second and the second-to-last knot), as the classic Airfoil grid's
// generator used it. Internal to the partition module.
#pragma once

#include <cstddef>
#include <vector>

namespace funcmesh::airfoil_detail {

class not_a_knot_spline {
 public:
  // Knots x strictly increasing, at least 4 of them; throws funcmesh::error otherwise.
  not_a_knot_spline(std::vector<double> x, std::vector<double> y);
  // The spline at t; outside the knots, the first or last cubic piece continued.
  double operator()(double t) const;

 private:
  std::vector<double> x_, y_, slope_;
};

}  // namespace funcmesh::airfoil_detail
