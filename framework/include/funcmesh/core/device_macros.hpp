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

// A loop body that must be inlined into its loop: GCC's heuristics leave a large body
// (a flux with boundary dispatch) as a call per element, which costs more than the call.
#if defined(__CUDACC__)
#define FUNCMESH_INLINE __forceinline__
#elif defined(__GNUC__) || defined(__clang__)
#define FUNCMESH_INLINE [[gnu::always_inline]] inline
#else
#define FUNCMESH_INLINE inline
#endif

// Before a short loop over a value's components whose iterations are independent (a
// limiter per component): the host compiler vectorises it across the components, its
// selects included. GCC otherwise unrolls such a loop before vectorising and leaves the
// selects as branches (bench/fv's limiter pass ran 3.5x slower so). Needs OpenMP (the
// build's -fopenmp); nothing in device code or without it.
#if defined(_OPENMP) && !defined(__CUDA_ARCH__)
#define FUNCMESH_SIMD _Pragma("omp simd")
#else
#define FUNCMESH_SIMD
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
// extended lambdas with captures as wrapper types that are not trivially copyable, and so
// is every class that holds one. Under nvcc a lambda closure counts as copyable, and so
// does a class template specialization that has a lambda among its type arguments (at any
// depth) when all its type arguments are copyable: its other members are the same for
// every argument, and the host compilers check them in the host builds of the same
// templates. Everything else is checked as by the host compilers.
#include <type_traits>

#if defined(__CUDACC__)
namespace funcmesh::detail {
// An extended lambda's closure type; in some host-pass contexts nvcc shows it only as an
// incomplete placeholder class (sizeof fails), which is taken for one too.
template <class T>
concept complete_type = requires {
  sizeof(T);
};
template <class T>
inline constexpr bool is_extended_lambda_v = __nv_is_extended_host_device_lambda_closure_type(T) ||
                                             __nv_is_extended_device_lambda_closure_type(T) ||
                                             (std::is_class_v<T> && !complete_type<T>);

template <class T>
struct holds_lambda : std::bool_constant<is_extended_lambda_v<T>> {};
template <template <class...> class Template, class... Args>
struct holds_lambda<Template<Args...>>
    : std::bool_constant<(holds_lambda<std::remove_cv_t<Args>>::value || ...)> {};

// The traits of anything that holds a lambda are never instantiated (std::disjunction and
// std::conditional_t do not). Function types (signatures, as in function<F, R(Args...)>)
// are arguments, never members.
template <class T>
struct kernel_copyable
    : std::disjunction<std::bool_constant<is_extended_lambda_v<T> || std::is_function_v<T>>,
                       std::is_trivially_copyable<T>> {};
template <template <class...> class Template, class... Args>
struct kernel_copyable<Template<Args...>>
    : std::conditional_t<holds_lambda<Template<Args...>>::value,
                         std::conjunction<kernel_copyable<std::remove_cv_t<Args>>...>,
                         std::is_trivially_copyable<Template<Args...>>> {};
}  // namespace funcmesh::detail
#define FUNCMESH_KERNEL_COPYABLE(...) (::funcmesh::detail::kernel_copyable<__VA_ARGS__>::value)
#else
#define FUNCMESH_KERNEL_COPYABLE(...) (std::is_trivially_copyable_v<__VA_ARGS__>)
#endif
