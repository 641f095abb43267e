// funcmesh::framework in one include: everything that needs neither MPI nor METIS
// (memory layer, paged arrays, grid expressions, executors, reductions, time schemes, io).
#pragma once

#include <funcmesh/config.hpp>
#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/core/error.hpp>
#include <funcmesh/core/index.hpp>
#include <funcmesh/core/settings.hpp>
#include <funcmesh/core/vec.hpp>
#include <funcmesh/exec/dispatch.hpp>
#include <funcmesh/exec/executor.hpp>
#include <funcmesh/exec/synchronize.hpp>
#include <funcmesh/exec/thread_policy.hpp>
#include <funcmesh/expr/expr.hpp>
#include <funcmesh/io/png.hpp>
#include <funcmesh/io/polygons.hpp>
#include <funcmesh/io/vtu.hpp>
#include <funcmesh/memory/memory.hpp>
#include <funcmesh/paged/paged.hpp>
#include <funcmesh/profile/device_activity.hpp>
#include <funcmesh/reduce/exact_sum.hpp>
#include <funcmesh/reduce/reduce.hpp>
#include <funcmesh/time.hpp>
