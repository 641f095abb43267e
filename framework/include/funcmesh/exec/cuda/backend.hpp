// The CUDA backend, for translation units that nvcc compiles. Elsewhere the cuda executor
// stays the unavailable primary backend, whose error says to compile the file as CUDA.
#pragma once

#if defined(__CUDACC__)
#include <funcmesh/exec/cuda/backend.cuh>
#endif
