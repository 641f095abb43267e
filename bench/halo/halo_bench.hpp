// bench/halo's shared pieces: the neighbour-average update on a partitioned quad mesh that
// its sections time (problem), the meshes section 3 searches (overlap_shape), and the
// sections that live in files of their own (point_to_point.cpp, fields_per_round.cpp,
// overlap.cpp).
#pragma once

#include <mpi.h>

#include <cmath>
#include <functional>
#include <memory>
#include <vector>

#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/distribute.hpp>
#include <funcmesh/comm/halo_plan.hpp>
#include <funcmesh/framework.hpp>
#include <funcmesh/func/function.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/dual_graph.hpp>

#include "../common/mpi_timing.hpp"

namespace halo_bench {

namespace fm = funcmesh;

using bench::idle_barrier;
using bench::interleaved;
using bench::max_over;
using bench::median;
using bench::now;

constexpr int max_neighbours = 4;  // quads have four faces
using neighbour_list = fm::vec<fm::index_t, max_neighbours>;

// u_new[i] = mean of u over i's face neighbours (the Laplacian smoothing step).
inline const auto average = fm::_([](fm::proxy<const double> u, neighbour_list n) {
  double sum = 0.0;
  int count = 0;
  for (int k = 0; k < max_neighbours; ++k) {
    if (n[k] >= 0) {
      sum += u[n[k]];
      ++count;
    }
  }
  return count > 0 ? sum / count : 0.0;
});

// ---- the update on a local mesh ----

struct problem {
  fm::distributed_layout layout;
  fm::halo_plan* plan;
  fm::dist_function<double> u, v;
  fm::grid_function<neighbour_list> nbr;

  problem(MPI_Comm comm, fm::index_t side)
      : problem(comm, [side] { return fm::box2d_quad(side, side); }, {}) {}
  problem(MPI_Comm comm, const std::function<fm::mesh()>& generate,
          const fm::partition_options& partitioning)
      : layout(fm::distribute_generated(comm, generate, partitioning)),
        plan(&layout.exchange_plan()),
        u(layout, "u"),
        v(layout, "v"),
        nbr(layout.owned_count(), layout.total_count() - layout.owned_count(), "neighbours") {
    const fm::local_mesh& m = layout.mesh();
    const fm::graph g = fm::dual_graph(m.cells);
    {
      auto w = nbr.write();
      for (fm::index_t c = 0; c < m.owned_count; ++c) {
        const auto list = g.neighbours(c);
        for (int k = 0; k < max_neighbours; ++k) {
          w[c][k] = k < static_cast<int>(list.size()) ? list[static_cast<std::size_t>(k)] : -1;
        }
      }
    }
    auto w = u.write();
    for (fm::index_t c = 0; c < m.owned_count; ++c) {
      w[c] = std::sin(1e-3 * static_cast<double>(m.global_cell[static_cast<std::size_t>(c)]));
    }
  }
  MPI_Comm comm() const { return layout.comm(); }
  fm::index_t max_halo() const {
    return static_cast<fm::index_t>(
        max_over(comm(), static_cast<double>(layout.mesh().halo_count())));
  }
  fm::index_t max_owned() const {
    return static_cast<fm::index_t>(max_over(comm(), static_cast<double>(layout.owned_count())));
  }
  void update() { v = average / fm::pure(fm::pr(u)) * nbr; }
  void step() {
    update();
    swap(u, v);  // the new u is written, so the next step exchanges its halo
  }
};

// The meshes section 3 searches: squares box2d_quad(side, side) partitioned by METIS, or
// strips of `strip_width` columns whose parts are stacked along their length (geometric
// bisection of a strip 1000 times taller than wide), so that a halo of strip_width cells
// meets an interior of strip_width x rows: a round that carries real bytes at the size
// where it takes as long as the update (a square's balanced halo is a few hundred bytes,
// all latency).
struct overlap_shape {
  fm::index_t strip_width = 0;  // 0: squares
  fm::index_t forced = 0;       // > 0: this side (rows per part) instead of the search's
  int ranks = 1;

  std::vector<fm::index_t> sizes() const {
    if (strip_width == 0) return {16, 32, 64, 128, 256, 512};
    std::vector<fm::index_t> rows;
    // At most 4M owned cells a rank.
    for (fm::index_t r = 1; r <= 1024 && r * strip_width <= (fm::index_t{4} << 20); r *= 2) {
      rows.push_back(r);
    }
    return rows;
  }
  const char* size_name() const { return strip_width == 0 ? "side" : "rows"; }
  std::unique_ptr<problem> make(MPI_Comm comm, fm::index_t size) const {
    if (strip_width == 0) return std::make_unique<problem>(comm, size);
    const fm::index_t width = strip_width, height = size * ranks;
    fm::partition_options along;
    along.method = fm::partition_method::geometric;
    return std::make_unique<problem>(
        comm,
        [width, height] {
          return fm::box2d_quad(width, height, {.lengths = {1, 1000, 1}});
        },
        along);
  }
};

// ---- the sections in files of their own ----

// 1. latency and bandwidth against message size (ranks 0 and 1).
void message_sizes(MPI_Comm world, int rank, int size);
// 2b. one message per neighbour per round against one per field, for 1, 2 and 4 fields.
void messages_per_round(problem& p, fm::index_t side, int rank);
// 3. overlap of the exchange with the update; returns the hidden fraction (NaN on 1 rank).
double overlap(MPI_Comm world, int rank, int size, const overlap_shape& shape);

}  // namespace halo_bench
