// exec::loop_label now lives in funcmesh/core/loop_label.hpp (executors and profiles both
// name it); this header keeps programs that include it by its old path compiling.
#pragma once

#include <funcmesh/core/loop_label.hpp>
