// face_set moved to the faces module (funcmesh/faces/face_set.hpp), which needs no MPI;
// this header keeps programs that include it by its old path compiling.
#pragma once

#include <funcmesh/faces/face_set.hpp>
