// funcmesh::app in one include: the command line every program shares (program, its
// standard option groups, usage_error). The MPI frame, app::run, and app::load are in
// <funcmesh/comm.hpp>.
#pragma once

#include <funcmesh/app/mesh_options.hpp>
#include <funcmesh/app/program.hpp>
#include <funcmesh/core/error.hpp>
