// Public names that were removed, each kept as a compile error that says what to write
// instead (CHANGELOG.md says when): a program written against an older funcmesh stops
// at the first one it uses with the new form in the message. Nothing else uses them.
#pragma once

#include <funcmesh/core/index.hpp>

namespace funcmesh {

namespace detail {
// False for every type, but only known once instantiated: the static_asserts below fire
// where a program names the removed thing, not where this header is read.
template <class Any>
inline constexpr bool removed_name = false;

template <class Any = void>
struct removed_distributed_mesh {
  static_assert(removed_name<Any>,
                "funcmesh: distributed_mesh is now distributed_layout: write `const "
                "funcmesh::distributed_layout layout = funcmesh::distribute(comm, mesh);` (or "
                "distribute_gmsh, app::load); layout.comm(), rank(), size(), mesh(), "
                "global_cells() and global_nodes() replace the struct's fields");
};
}  // namespace detail

// Removed when distribute() began to return a distributed_layout: see the message.
using distributed_mesh = detail::removed_distributed_mesh<>;

// Removed with it: the layout builds its face set once, collectively.
template <class Layout>
void face_set_for(const Layout&, index_t = 0) {
  static_assert(detail::removed_name<Layout>,
                "funcmesh: face_set_for(dm) is gone: the layout builds its face set "
                "once; write `layout.faces()` (a const funcmesh::face_set&)");
}

// Removed with it: the layout holds its halo plan.
template <class... Any>
void halo_plan_for(const Any&...) {
  static_assert(detail::removed_name<void(Any...)>,
                "funcmesh: halo_plan_for(comm, local) is gone: a distributed_layout holds its "
                "halo plan; write `layout.exchange_plan()`");
}

namespace mpi {
// Removed when ranks began to bind to their GPU at start-up.
template <class Communicator>
void bind_default_executor(const Communicator&) {
  static_assert(funcmesh::detail::removed_name<Communicator>,
                "funcmesh: mpi::bind_default_executor(comm) is gone: mpi::environment binds "
                "each rank to its GPU at start-up (mpi::bind_rank_to_gpu), and the default "
                "executor is chosen per translation unit (nvcc-compiled code runs on the "
                "rank's GPU; docs/executors.md): delete the call");
}
}  // namespace mpi

}  // namespace funcmesh
