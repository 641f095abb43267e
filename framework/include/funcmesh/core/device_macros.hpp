// Macros that mark code callable on host and device.
// FUNCMESH_DEVICE is __host__ __device__ under nvcc and nothing for host compilers; this
// header is the one place where portable code looks at the compiler.
#pragma once

#if defined(__CUDACC__)
#define FUNCMESH_DEVICE __host__ __device__
#define FUNCMESH_DEVICE_ONLY __device__
#else
#define FUNCMESH_DEVICE
#define FUNCMESH_DEVICE_ONLY
#endif

// True while compiling device code (nvcc's device pass), false everywhere else.
#if defined(__CUDA_ARCH__)
#define FUNCMESH_IN_DEVICE_CODE 1
#else
#define FUNCMESH_IN_DEVICE_CODE 0
#endif
