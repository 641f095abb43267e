// funcmesh::partition in one include: meshes, readers, dual graphs and METIS
// partitioning into per-rank local meshes (no MPI).
#pragma once

#include <funcmesh/partition/airfoil_grid.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/cell_type.hpp>
#include <funcmesh/partition/dual_graph.hpp>
#include <funcmesh/partition/face_colouring.hpp>
#include <funcmesh/partition/geometry.hpp>
#include <funcmesh/partition/gmsh_reader.hpp>
#include <funcmesh/partition/hilbert.hpp>
#include <funcmesh/partition/local_cell_lookup.hpp>
#include <funcmesh/partition/local_mesh.hpp>
#include <funcmesh/partition/mesh.hpp>
#include <funcmesh/partition/mesh_faces.hpp>
#include <funcmesh/partition/mesh_read_error.hpp>
#include <funcmesh/partition/mesh_slab.hpp>
#include <funcmesh/partition/metis_error.hpp>
#include <funcmesh/partition/partition_metrics.hpp>
#include <funcmesh/partition/partitioning.hpp>
#include <funcmesh/partition/vtk_piece.hpp>
#include <funcmesh/partition/xdmf.hpp>
