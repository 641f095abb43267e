// Index checks for views: active where FUNCMESH_DEBUG_CHECKS is defined (debug builds of
// funcmesh and of its consumers), free otherwise. On the host a bad index throws
// index_error; in device code it prints and traps.
#pragma once

#include <cstdio>

#include <funcmesh/core/device_macros.hpp>
#include <funcmesh/core/error.hpp>
#include <funcmesh/core/index.hpp>

namespace funcmesh::detail {

FUNCMESH_DEVICE inline void check_index(index_t index, index_t size) {
  if (index < 0 || index >= size) {
#if FUNCMESH_IN_DEVICE_CODE
    printf("funcmesh: index %lld outside [0, %lld)\n", static_cast<long long>(index),
           static_cast<long long>(size));
    __trap();
#else
    throw_index_error(index, size);
#endif
  }
}

}  // namespace funcmesh::detail

#if defined(FUNCMESH_DEBUG_CHECKS)
#define FUNCMESH_CHECK_INDEX(index, size) ::funcmesh::detail::check_index((index), (size))
#else
#define FUNCMESH_CHECK_INDEX(index, size) ((void)0)
#endif
