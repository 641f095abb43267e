// funcmesh/profile in one include: the hook API for external tools (hooks.hpp), the scope
// that pairs begin and end (scope.hpp) and the FUNCMESH_PROFILE table (table.hpp).
#pragma once

#include <funcmesh/profile/hooks.hpp>
#include <funcmesh/profile/scope.hpp>
#include <funcmesh/profile/table.hpp>
