// mesh_options: which mesh a program runs on, as its command line gives it: a Gmsh file or
// a funcmesh mesh file (--mesh FILE) or a built-in box (--builtin NAME --n N --perturbation
// P), how it is partitioned (--partitioner) and where to save it (--save-mesh). Plain data
// and its checks; comm's app::load(comm, options) reads or generates it on every rank.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <funcmesh/core/index.hpp>

namespace funcmesh::app {

struct mesh_options {
  static constexpr double max_perturbation = 0.2;

  std::string file;  // a Gmsh .msh file; empty: the built-in box
  std::string builtin = "box2d-quad";
  index_t n = 64;           // built-in: cells per direction on the unit square or cube
  double perturbation = 0;  // built-in: interior nodes moved by up to this fraction of h
                            // (0 to max_perturbation)
  // auto, metis, parmetis, ptscotch or hilbert (comm/partitioner.hpp): auto is METIS on
  // rank 0 for .msh files, the parallel set-up for .h5 files and built-in boxes.
  std::string partitioner = "auto";
  std::string save_mesh;  // write the mesh as a funcmesh .h5 file first (.msh or built-in)

  // "box2d-quad 64^d" or the file's name.
  std::string describe() const;
  // Throws usage_error naming the option for values no built-in mesh accepts (the command
  // line checks them too; this is for options set in code).
  void check() const;
};

// box2d-quad, box2d-tri, box3d-hex, box3d-tet.
const std::vector<std::string>& builtin_mesh_names();
// auto, metis, parmetis, ptscotch, hilbert: the order of funcmesh::partitioner.
const std::vector<std::string>& partitioner_names();

}  // namespace funcmesh::app
