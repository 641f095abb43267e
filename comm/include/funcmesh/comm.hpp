// funcmesh::comm in one include: MPI environment, distributed layouts and functions, halo
// exchange, face loops, global reductions and parallel output; with the framework,
// partition and faces umbrellas, so a distributed program needs this one include.
#pragma once

#include <funcmesh/faces.hpp>
#include <funcmesh/framework.hpp>
#include <funcmesh/partition.hpp>

#include <funcmesh/comm/app_run.hpp>
#include <funcmesh/comm/collective_error.hpp>
#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/distribute.hpp>
#include <funcmesh/comm/distribute_slab.hpp>
#include <funcmesh/comm/distributed_assign.hpp>
#include <funcmesh/comm/distributed_graph.hpp>
#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/comm/environment.hpp>
#include <funcmesh/comm/face_flux_field.hpp>
#include <funcmesh/comm/face_loops.hpp>
#include <funcmesh/comm/face_sum.hpp>
#include <funcmesh/comm/global_min_dt.hpp>
#include <funcmesh/comm/global_reduce.hpp>
#include <funcmesh/comm/gpu_aware_mpi.hpp>
#include <funcmesh/comm/gpu_binding.hpp>
#include <funcmesh/comm/halo_plan.hpp>
#include <funcmesh/comm/halo_progress.hpp>
#include <funcmesh/comm/halo_state.hpp>
#include <funcmesh/comm/load_mesh.hpp>
#include <funcmesh/comm/mesh_file.hpp>
#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/comm/paged_dist_function.hpp>
#include <funcmesh/comm/parallel_output.hpp>
#include <funcmesh/comm/partitioner.hpp>
#include <funcmesh/comm/png_output.hpp>
#include <funcmesh/comm/removed_names.hpp>
#include <funcmesh/comm/spmd_check.hpp>
#include <funcmesh/comm/thread_share.hpp>
