// The Airfoil algorithm (issue 6, section 2a) as plain loops over raw arrays: the
// reference that proves the classic grid right and the baseline the funcmesh euler
// benchmark is measured against. Of funcmesh it uses the mesh it reads, nothing else.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

namespace funcmesh {
struct mesh;
}

struct plain_airfoil_options {
  int threads = 0;  // OpenMP threads for the cell loops; 0: OpenMP's default
  // Section 2a's constants as the original C code wrote them, float literals widened to
  // double (gam = 1.4f, gm1 = gam - 1.0f, cfl = 0.9f, eps = 0.05f, mach = 0.4f). The
  // published 1.060114637578e-04 at iteration 1000 is reproduced to all 13 digits with
  // them; the exact decimals of the spec (the default) give 1.060114598548e-04.
  bool float_constants = false;
  bool precise = false;  // run_plain_airfoil prints "%d %.12e" instead of "%d %10.5e"
};

// The grid as raw arrays plus the flow state. Faces come from the cells' node lists
// (two cells per interior face, its normal pointing from the first to the second); the
// boundary faces take their kind from the mesh's "wall" and "farfield" groups. adt and
// the update run under OpenMP; the face loops are serial, in the order of their first
// cell, so the state is bitwise the same whatever the thread count (the rms sum is not).
class plain_airfoil {
 public:
  // Throws std::runtime_error for a mesh that is not 2-D, a face shared by more than two
  // cells, a boundary face without a wall/farfield element or indices beyond 32 bits.
  explicit plain_airfoil(const funcmesh::mesh& grid, const plain_airfoil_options& options = {});
  plain_airfoil(const funcmesh::mesh& grid, int threads)
      : plain_airfoil(grid, plain_airfoil_options{.threads = threads}) {}

  void reset();        // q = qinf, res = 0
  double iteration();  // one iteration; returns sqrt(rms / cells) of its second update
  std::int64_t cells() const { return static_cast<std::int64_t>(adt_.size()); }
  const std::vector<double>& state() const { return q_; }  // 4 per cell

 private:
  struct interior_face {
    int left, right;
    double nx, ny;
  };
  struct boundary_face {
    int cell;
    bool wall;  // otherwise far field
    double nx, ny;
  };
  void compute_adt();
  void interior_fluxes();
  void boundary_fluxes();
  double update();

  int threads_;  // >= 1
  double gam_, gm1_, cfl_, eps_, qinf_[4];
  std::vector<int> face_offsets_;  // cell c's faces: cell_faces_[face_offsets_[c] ..]
  std::vector<std::array<double, 3>> cell_faces_;  // nx, ny, |n| (sign irrelevant)
  std::vector<interior_face> interior_;
  std::vector<boundary_face> boundary_;
  std::vector<double> q_, qold_, res_, adt_;
};

struct plain_airfoil_result {
  std::vector<std::pair<int, double>> rms;  // (iteration, sqrt(rms / cells)) every 100
  double seconds_per_iteration = 0;         // the iterations only, not the set-up
};

// Runs iterations from q = qinf, printing "%d %10.5e" lines (the iteration and the rms)
// every 100 iterations to print when it is not null.
plain_airfoil_result run_plain_airfoil(const funcmesh::mesh& grid, int iterations,
                                       std::FILE* print = nullptr,
                                       const plain_airfoil_options& options = {});
