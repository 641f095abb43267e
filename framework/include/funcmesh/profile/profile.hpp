// funcmesh/profile in one include: the hook API for external tools (hooks.hpp), the scope
// that pairs begin and end (scope.hpp), the FUNCMESH_PROFILE table (table.hpp) and the
// device activity counters (device_activity.hpp).
#pragma once

#include <funcmesh/profile/device_activity.hpp>
#include <funcmesh/profile/hooks.hpp>
#include <funcmesh/profile/scope.hpp>
#include <funcmesh/profile/table.hpp>
