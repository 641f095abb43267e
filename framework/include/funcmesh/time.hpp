// funcmesh/time: explicit time stepping over any state with expression assignment
// (grid_function here, dist_function in comm): schemes (tableaus, SSP, low-storage, your
// own step), the driver with its callbacks, and a progress printer.
#pragma once

#include <funcmesh/core/error.hpp>
#include <funcmesh/time/butcher_tableau.hpp>
#include <funcmesh/time/callbacks.hpp>
#include <funcmesh/time/driver.hpp>
#include <funcmesh/time/explicit_rk.hpp>
#include <funcmesh/time/linear_combination.hpp>
#include <funcmesh/time/low_storage_rk.hpp>
#include <funcmesh/time/options.hpp>
#include <funcmesh/time/progress_printer.hpp>
#include <funcmesh/time/rhs.hpp>
#include <funcmesh/time/scheme.hpp>
#include <funcmesh/time/ssp_rk.hpp>
#include <funcmesh/time/state.hpp>
#include <funcmesh/time/step_info.hpp>
