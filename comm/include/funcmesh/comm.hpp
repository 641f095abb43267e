// funcmesh::comm in one include: MPI environment, distributed meshes and grid functions,
// halo exchange and global reductions.
#pragma once

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/distributed_mesh.hpp>
#include <funcmesh/comm/environment.hpp>
#include <funcmesh/comm/face_loops.hpp>
#include <funcmesh/comm/face_set.hpp>
#include <funcmesh/comm/face_sum.hpp>
#include <funcmesh/comm/global_reduce.hpp>
#include <funcmesh/comm/gpu_aware_mpi.hpp>
#include <funcmesh/comm/gpu_binding.hpp>
#include <funcmesh/comm/halo_plan.hpp>
#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/comm/parallel_output.hpp>
#include <funcmesh/comm/png_output.hpp>
#include <funcmesh/partition.hpp>
