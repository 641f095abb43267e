// atomic_add(target, value): target += value as one indivisible update, on a CUDA device
// or on the host (the simulated device), for the scatter form's device loop (many faces
// add to one cell at once). Defined for double and vec<double, N>; has_atomic_add_v tells
// the loops which values qualify.
#pragma once

#include <atomic>
#include <type_traits>

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/core/vec.hpp>

namespace funcmesh::detail {

template <class T>
inline constexpr bool has_atomic_add_v = std::is_same_v<T, double>;
template <int N>
inline constexpr bool has_atomic_add_v<vec<double, N>> = true;

// On the host an atomic add too: the simulated device runs the device form there (one
// thread today; an atomic costs it little and keeps the body right under threads).
FUNCMESH_DEVICE inline void atomic_add(double& target, double value) {
#if defined(__CUDA_ARCH__)
  atomicAdd(&target, value);
#else
  std::atomic_ref<double>(target).fetch_add(value, std::memory_order_relaxed);
#endif
}

template <int N>
FUNCMESH_DEVICE void atomic_add(vec<double, N>& target, const vec<double, N>& value) {
  for (int k = 0; k < N; ++k) atomic_add(target[k], value[k]);
}

}  // namespace funcmesh::detail
