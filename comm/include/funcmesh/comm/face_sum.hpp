// The face sums over a distributed layout: sum_over_faces(layout, flux, u, boundary...) and
// sum_over_cell_faces(layout, f, u) are those of its face set (layout.faces(), built
// collectively on first use). The face sums themselves are MPI-free: funcmesh/faces.
#pragma once

#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/faces/face_sum.hpp>

namespace funcmesh {

template <class Flux, class U, class... B>
auto sum_over_faces(const distributed_layout& layout, Flux flux, const U& u,
                    const boundary_flux<B>&... b) {
  return sum_over_faces(layout.faces(), flux, u, b...);
}
template <class F, class U>
auto sum_over_cell_faces(const distributed_layout& layout, F f, const U& u) {
  return sum_over_cell_faces(layout.faces(), f, u);
}
template <class Op, class Flux, class U, class... B>
auto combine_over_faces(const distributed_layout& layout, Op op, Flux flux, const U& u,
                        const boundary_flux<B>&... b) {
  return combine_over_faces(layout.faces(), op, flux, u, b...);
}
template <class Op, class F, class U>
auto combine_over_cell_faces(const distributed_layout& layout, Op op, F f, const U& u) {
  return combine_over_cell_faces(layout.faces(), op, f, u);
}

}  // namespace funcmesh
