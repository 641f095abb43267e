// distributed_layout: the partition's shared state, built once per distribute() call; the
// face set and cell volumes on first use (with one agreement over the ranks).
#include <funcmesh/comm/distributed_layout.hpp>

#include <algorithm>
#include <atomic>
#include <mutex>

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/detail/freed_memory.hpp>
#include <funcmesh/comm/mpi_error.hpp>

namespace funcmesh {

namespace detail {

struct layout_state {
  MPI_Comm comm = MPI_COMM_NULL;  // owned: MPI_Comm_dup of the caller's
  int rank = 0;
  int size = 1;
  local_mesh local;
  index_t global_cells = 0;
  index_t global_nodes = 0;
  halo_options halo_settings;
  std::vector<std::string> boundary_groups;
  std::unique_ptr<halo_plan> plan;
  std::uint64_t id = 0;
  std::once_flag faces_built;
  std::unique_ptr<face_set> faces;
  std::once_flag volume_built;  // on its own first use: a solver that never asks stores none
  std::unique_ptr<grid_function<double>> volume;

  layout_state() = default;
  layout_state(const layout_state&) = delete;
  layout_state& operator=(const layout_state&) = delete;
  ~layout_state() {
    // Every rank drops its last handle at the same point of the program (SPMD), so this
    // collective-in-principle free is matched; after MPI_Finalize no call is allowed.
    plan.reset();
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized == 0 && comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }
};

}  // namespace detail

namespace {
std::atomic<std::uint64_t> layouts_made{0};
}  // namespace

distributed_layout::distributed_layout(MPI_Comm comm, local_mesh local, index_t global_cells,
                                       index_t global_nodes, halo_options halo)
    : state_(std::make_shared<detail::layout_state>()) {
  detail::layout_state& s = *state_;
  s.id = ++layouts_made;
  check_mpi(MPI_Comm_dup(comm, &s.comm), "MPI_Comm_dup (distributed layout)", comm);
  check_mpi(MPI_Comm_rank(s.comm, &s.rank), "MPI_Comm_rank", s.comm);
  check_mpi(MPI_Comm_size(s.comm, &s.size), "MPI_Comm_size", s.comm);
  s.local = std::move(local);
  s.global_cells = global_cells;
  s.global_nodes = global_nodes;
  s.halo_settings = halo;
  // The local mesh carries the global mesh's physical groups: the same list on every rank.
  const int boundary_dimension = s.local.cells.dimension - 1;
  for (const auto& g : s.local.cells.physical_groups) {
    if (g.dimension == boundary_dimension) s.boundary_groups.push_back(g.name);
  }
  s.plan = std::make_unique<halo_plan>(s.comm, s.local);
}

MPI_Comm distributed_layout::comm() const { return state_->comm; }
int distributed_layout::rank() const { return state_->rank; }
int distributed_layout::size() const { return state_->size; }
const local_mesh& distributed_layout::local() const { return state_->local; }
index_t distributed_layout::owned_count() const { return state_->local.owned_count; }
index_t distributed_layout::interior_count() const { return state_->local.interior_count; }
index_t distributed_layout::total_count() const { return state_->local.cells.cell_count(); }
index_t distributed_layout::global_cells() const { return state_->global_cells; }
index_t distributed_layout::global_nodes() const { return state_->global_nodes; }
int distributed_layout::halo_depth() const { return state_->halo_settings.depth; }
const std::vector<std::string>& distributed_layout::boundary_groups() const {
  return state_->boundary_groups;
}
bool distributed_layout::has_boundary_group(const std::string& name) const {
  return std::ranges::find(state_->boundary_groups, name) != state_->boundary_groups.end();
}
halo_plan& distributed_layout::halo() const { return *state_->plan; }
std::uint64_t distributed_layout::id() const { return state_->id; }

std::string distributed_layout::describe() const {
  return "layout #" + std::to_string(state_->id) + " (" + std::to_string(state_->global_cells) +
         " cells on " + std::to_string(state_->size) + (state_->size == 1 ? " rank)" : " ranks)");
}

const face_set& distributed_layout::faces() const { return built_faces(face_geometry{}); }

const face_set& distributed_layout::faces(const face_geometry& stored) const {
  const face_set& built = built_faces(stored);
  if (!built.stored_geometry().covers(stored)) {
    // Alike on every rank: every rank built the same columns and asks the same.
    auto list = [](const face_geometry& g) {
      std::string names;
      if (g.distance) names += " distance";
      if (g.face_centroid) names += " face_centroid";
      if (g.cell_centroid) names += " cell_centroid";
      if (g.cell_volume) names += " cell_volume";
      return names.empty() ? std::string(" (none)") : names;
    };
    throw error("funcmesh: " + describe() + ": faces() asked for the geometry" + list(stored) +
                " but its faces were built first storing only" + list(built.stored_geometry()) +
                ": ask for everything a solver reads on the first call of faces()");
  }
  return built;
}

const face_set& distributed_layout::built_faces(const face_geometry& stored) const {
  detail::layout_state& s = *state_;
  // An agreement that throws leaves the flag unset: every rank throws, and may try again.
  // Everything that can fail happens before the agreement, so every rank leaves it alike.
  std::call_once(s.faces_built, [&s, &stored] {
    std::unique_ptr<face_set> faces;
    std::exception_ptr failure;
    try {
      faces = std::make_unique<face_set>(s.local, default_face_block_size,
                                         face_set::automatic_flux_window, stored);
      if (faces->untagged_boundary_faces() > 0) {
        throw error("funcmesh: " + std::to_string(faces->untagged_boundary_faces()) +
                    " domain-boundary face(s) of this rank's part carry no boundary physical "
                    "group (untagged boundary): tag every boundary face of the mesh (a Gmsh "
                    "Physical Curve in 2-D, Physical Surface in 3-D)");
      }
    } catch (...) {
      failure = std::current_exception();
    }
    mpi::agree(mpi::communicator(s.comm), failure);
    s.faces = std::move(faces);
    detail::return_freed_memory();
  });
  return *s.faces;
}

const grid_function<double>& distributed_layout::volume() const {
  // A first call builds everything, as faces() does (a solver may ask for the volumes
  // before its first face loop); faces built earlier must hold the volumes.
  (void)faces();
  face_geometry volumes_only = face_geometry::minimal();
  volumes_only.cell_volume = true;
  const face_set& built = faces(volumes_only);
  detail::layout_state& s = *state_;
  std::call_once(s.volume_built, [&s, &built] {
    std::unique_ptr<grid_function<double>> volume;
    std::exception_ptr failure;  // an allocation: agreed, as the faces' failures are
    try {
      volume = std::make_unique<grid_function<double>>(built.volume_function());
    } catch (...) {
      failure = std::current_exception();
    }
    mpi::agree(mpi::communicator(s.comm), failure);
    s.volume = std::move(volume);
  });
  return *s.volume;
}

}  // namespace funcmesh
