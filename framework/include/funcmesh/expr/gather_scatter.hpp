// Gather and scatter by an index list on any executor: packed[k] = f[indices[k]] and
// f[indices[k]] = packed[k]. Halo pack and unpack are these calls; they only move bytes,
// so they are compiled once into the library (CUDA kernels included) and the comm layer
// needs no device compiler of its own.
#pragma once

#include <cstddef>

#include <funcmesh/core/index.hpp>
#include <funcmesh/exec/executor.hpp>
#include <funcmesh/expr/grid_function.hpp>
#include <funcmesh/memory/array.hpp>
#include <funcmesh/memory/buffer.hpp>
#include <funcmesh/memory/token.hpp>

namespace funcmesh {

namespace detail {
// Elements of element_size bytes; every index must lie in [0, values_count). Throws
// funcmesh::error naming the first index out of range; a caller that validated its list
// once (a halo plan, at construction) passes list_checked and skips that pass over it.
// scatter_bytes takes `values` with `holder` when given (a bound loop's token, which may
// already read them: halo_source::unpack), else with a token of its own, as it takes the
// packed bytes and the list, released on return.
void gather_bytes(const executor& on, const buffer& values, index_t values_count,
                  const buffer& indices, buffer& packed, std::size_t element_size,
                  bool list_checked = false);
void scatter_bytes(const executor& on, const buffer& packed, const buffer& indices, buffer& values,
                   index_t values_count, std::size_t element_size, bool list_checked = false,
                   token* holder = nullptr);
}  // namespace detail

// packed (resized to the list's length) receives source's values at the listed indices.
template <class T, class Tag>
void gather(const grid_function<T, Tag>& source, const array<index_t>& indices, array<T>& packed,
            const executor& on = default_executor()) {
  packed.resize(indices.size());
  detail::gather_bytes(on, source.storage(), source.total_size(), indices.storage(),
                       packed.storage(), sizeof(T));
}

// target's values at the listed indices are replaced by packed's, in list order.
template <class T, class Tag>
void scatter(const array<T>& packed, const array<index_t>& indices, grid_function<T, Tag>& target,
             const executor& on = default_executor()) {
  if (packed.size() != indices.size()) {
    throw error("funcmesh::scatter into " + target.describe() + ": " +
                std::to_string(packed.size()) + " packed values for " +
                std::to_string(indices.size()) + " indices");
  }
  detail::scatter_bytes(on, packed.storage(), indices.storage(), target.storage(),
                        target.total_size(), sizeof(T));
  target.mark_written();
}

}  // namespace funcmesh
