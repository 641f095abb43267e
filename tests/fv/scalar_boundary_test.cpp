// Scalar boundary conditions and the two-point diffusion flux: each kind's outside value for
// upwinding, the diffusion boundary flux by group, exact antisymmetry of the interior flux,
// and the kind names.
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <string>

#include <funcmesh/fv/scalar_boundary.hpp>

namespace fm = funcmesh;
namespace fv = funcmesh::fv;

namespace {

fm::face_view boundary_face(int physical) {
  fm::face_view f;
  f.area = 0.5;
  f.normal = {{1, 0, 0}};
  f.distance = 0.25;
  f.physical = physical;
  return f;
}

TEST(scalar_conditions, give_the_outside_value_by_kind_and_flow_direction) {
  const auto dirichlet = fv::scalar_condition::dirichlet(3.0);
  const auto neumann = fv::scalar_condition::neumann(2.0);
  const auto in_out = fv::scalar_condition::inflow_outflow(7.0);
  for (const double a_n : {-1.0, 1.0}) {
    EXPECT_EQ(dirichlet.outside(1.5, a_n), 3.0);
    EXPECT_EQ(neumann.outside(1.5, a_n), 1.5);
  }
  EXPECT_EQ(in_out.outside(1.5, -0.5), 7.0) << "flowing in: the given value";
  EXPECT_EQ(in_out.outside(1.5, 0.5), 1.5) << "flowing out: the cell's own";
}

TEST(scalar_conditions, drive_the_diffusion_boundary_flux_by_group) {
  fv::boundary_table<fv::scalar_condition> table;
  table.count = 3;
  table.ids[0] = 4;
  table.conditions[0] = fv::scalar_condition::dirichlet(1.0);
  table.ids[1] = 5;
  table.conditions[1] = fv::scalar_condition::neumann(2.0);
  table.ids[2] = 6;
  table.conditions[2] = fv::scalar_condition::inflow_outflow(9.0);
  const fv::diffusion_boundary b{0.8, table};
  EXPECT_DOUBLE_EQ(b(0.25, boundary_face(4)), 0.8 * (1.0 - 0.25) * 0.5 / 0.25);
  EXPECT_DOUBLE_EQ(b(0.25, boundary_face(5)), 2.0 * 0.5);
  EXPECT_EQ(b(0.25, boundary_face(6)), 0.0);
}

TEST(two_point_diffusion, is_exactly_antisymmetric) {
  const fv::two_point_diffusion flux{0.37};
  fm::face_view f = boundary_face(0);
  double worst = 0;
  for (int k = 0; k < 1000; ++k) {
    const double a = 0.1 * k - 3.7, b = 1.0 / (k + 1.3);
    const double mine = flux(a, b, f);
    fm::face_view back = f;
    back.normal = -f.normal;
    const double negated = -flux(b, a, back);
    EXPECT_EQ(std::memcmp(&mine, &negated, sizeof mine), 0) << a << " " << b;
    worst = std::max(worst, std::abs(mine));
  }
  EXPECT_GT(worst, 0.0);
}

TEST(scalar_conditions, parse_their_names_and_list_them_for_an_unknown_one) {
  EXPECT_EQ(fv::parse_scalar_boundary_kind("dirichlet"), fv::scalar_boundary_kind::dirichlet);
  EXPECT_EQ(fv::parse_scalar_boundary_kind("inflow-outflow"),
            fv::scalar_boundary_kind::inflow_outflow);
  try {
    (void)fv::parse_scalar_boundary_kind("robin");
    FAIL() << "an unknown kind was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'robin'; valid: dirichlet, neumann, inflow-outflow"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
