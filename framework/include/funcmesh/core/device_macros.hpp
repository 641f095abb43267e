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

// Placed before a FUNCMESH_DEVICE template that may wrap a host-only callable: nvcc then
// checks the call only where it is instantiated for the device, instead of warning about
// every host instantiation.
#if defined(__CUDACC__)
#define FUNCMESH_EXEC_CHECK_DISABLE _Pragma("nv_exec_check_disable")
#else
#define FUNCMESH_EXEC_CHECK_DISABLE
#endif

// Whether a type may be copied into a kernel (trivially copyable). nvcc's host pass sees
// extended lambdas with captures as wrapper types that are not trivially copyable (nor
// complete, in traits), so the check is left to the host compilers, which build the same
// expressions in the host tests.
#if defined(__CUDACC__)
#define FUNCMESH_KERNEL_COPYABLE(...) true
#else
#define FUNCMESH_KERNEL_COPYABLE(...) (std::is_trivially_copyable_v<__VA_ARGS__>)
#endif
