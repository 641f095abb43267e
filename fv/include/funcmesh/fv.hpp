// funcmesh::fv in one include: the parts of second-order finite-volume schemes — gradients,
// neighbour bounds, limiters, reconstruction, numerical fluxes (scalar, any system, Euler),
// boundary conditions by group and stable steps — on any executor. No MPI.
#pragma once

#include <funcmesh/fv/boundary_table.hpp>
#include <funcmesh/fv/canonical_orientation.hpp>
#include <funcmesh/fv/euler.hpp>
#include <funcmesh/fv/euler_boundary.hpp>
#include <funcmesh/fv/euler_flux_choice.hpp>
#include <funcmesh/fv/euler_fluxes.hpp>
#include <funcmesh/fv/euler_outside.hpp>
#include <funcmesh/fv/gradient.hpp>
#include <funcmesh/fv/limited_gradient.hpp>
#include <funcmesh/fv/limiters.hpp>
#include <funcmesh/fv/neighbour_bounds.hpp>
#include <funcmesh/fv/numerical_fluxes.hpp>
#include <funcmesh/fv/reconstruction.hpp>
#include <funcmesh/fv/scalar_boundary.hpp>
#include <funcmesh/fv/stable_step.hpp>
