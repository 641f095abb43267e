// distributed_layout: the partition's shared state, built once per distribute() call; the
// face set and the cell geometry in prepare_faces (one collective call, agreed over the ranks).
#include <funcmesh/comm/distributed_layout.hpp>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/mpi_error.hpp>
#include <funcmesh/faces/detail/freed_memory.hpp>

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
  // gather_faces' face fluxes, kept for the next call (detail::face_flux_scratch).
  buffer flux_scratch;
  // Built with the faces (prepare_faces), for the cell geometry the faces store: a solver
  // whose faces store none (face_geometry::minimal()) holds none.
  std::unique_ptr<grid_function<double>> volume, cell_size;
  std::unique_ptr<grid_function<vec<double, 3>>> centroid;

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

// `make()` into `slot`; a failure (an allocation, a halo exchange) is agreed, as the
// faces' failures are, so every rank throws together. `then` runs on every rank after the
// agreement (a collective step that must not be skipped by one rank alone).
struct nothing_after {
  template <class T>
  void operator()(T&) const {}
};
template <class T, class Make, class Then = nothing_after>
void build_agreed(std::unique_ptr<T>& slot, MPI_Comm comm, const Make& make,
                  const Then& then = {}) {
  std::unique_ptr<T> made;
  std::exception_ptr failure;
  try {
    made = std::make_unique<T>(make());
  } catch (...) {
    failure = std::current_exception();
  }
  mpi::agree(mpi::communicator(comm), failure);
  then(*made);
  slot = std::move(made);
}

// The cells' geometry as grid functions, for what the faces store; collective (cell_size()
// exchanges its halo), and so part of prepare_faces.
void build_cell_geometry(detail::layout_state& s) {
  const face_set& built = *s.faces;
  if (built.stored_geometry().cell_volume) {
    build_agreed(s.volume, s.comm, [&] { return built.volume_function(); });
    build_agreed(
        s.cell_size, s.comm,
        [&] { return built.owned_cell_size_function(s.local.cells.dimension); },
        [&](grid_function<double>& size) {
          // A halo cell's own faces are not in the face set: its size comes from its
          // owner, with the same bits.
          s.plan->exchange(size, sizeof(double));
        });
  }
  if (built.stored_geometry().cell_centroid) {
    build_agreed(s.centroid, s.comm, [&] { return built.centroid_function(); });
  }
}

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
const local_mesh& distributed_layout::mesh() const { return state_->local; }
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
halo_plan& distributed_layout::exchange_plan() const { return *state_->plan; }
std::uint64_t distributed_layout::id() const { return state_->id; }

std::string distributed_layout::describe() const {
  return "layout #" + std::to_string(state_->id) + " (" + std::to_string(state_->global_cells) +
         " cells on " + std::to_string(state_->size) + (state_->size == 1 ? " rank)" : " ranks)");
}

const face_set& distributed_layout::faces() const { return built_faces(face_geometry{}); }

const face_set& distributed_layout::faces(const face_geometry& stored) const {
  return prepare_faces(stored);
}

buffer detail::face_flux_scratch(const distributed_layout& layout, std::size_t value_bytes) {
  const std::size_t bytes = checked_bytes(layout.faces().size(), value_bytes);
  buffer& scratch = layout.state_->flux_scratch;
  if (scratch.size_bytes() != bytes) scratch.set_size(bytes);
  return scratch;
}

bool distributed_layout::faces_prepared() const { return state_->faces != nullptr; }

const face_set& distributed_layout::prepare_faces(const face_geometry& stored) const {
  const face_set& built = built_faces(stored);
  if (!built.stored_geometry().covers(stored)) {
    // Alike on every rank: every rank built the same columns and asks the same.
    auto list = [](const face_geometry& g) {
      std::string names;
      if (g.distance) names += " distance";
      if (g.face_centroid) names += " face_centroid";
      if (g.cell_centroid) names += " cell_centroid";
      if (g.cell_volume) names += " cell_volume";
      if (g.cell_offsets) names += " cell_offsets";
      return names.empty() ? std::string(" (none)") : names;
    };
    throw error("funcmesh::distributed_layout::prepare_faces: " + describe() +
                ": asked for the geometry" + list(stored) +
                " but its faces were prepared first storing only" + list(built.stored_geometry()) +
                ": prepare them once with everything the solver reads");
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
        throw error("funcmesh::distributed_layout::faces: " +
                    std::to_string(faces->untagged_boundary_faces()) +
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
    build_cell_geometry(s);
  });
  return *s.faces;
}

void distributed_layout::require_groups(std::initializer_list<std::string_view> names) const {
  require_groups(std::vector<std::string>(names.begin(), names.end()));
}

void distributed_layout::require_groups(const std::vector<std::string>& names) const {
  std::string missing;
  for (const std::string& name : names) {
    if (!has_boundary_group(name)) missing += " \"" + name + "\"";
  }
  if (missing.empty()) return;
  std::string known;
  for (const std::string& group : boundary_groups()) known += " \"" + group + "\"";
  throw agreed_error("funcmesh::distributed_layout::require_groups: the mesh of " + describe() +
                     " has no boundary group" + missing + " (it has" +
                     (known.empty() ? std::string(" none") : known) +
                     "; a Gmsh mesh names them with Physical Curve (2-D) or Physical Surface "
                     "(3-D) groups)");
}

namespace {

// The face set with (at least) the cell geometry `wanted`: a first call builds everything,
// as faces() does (a solver may ask for cell geometry before its first face loop); faces
// built earlier must hold it.
const face_set& faces_with(const distributed_layout& layout, void (*want)(face_geometry&)) {
  (void)layout.faces();
  face_geometry wanted = face_geometry::minimal();
  want(wanted);
  return layout.prepare_faces(wanted);
}

}  // namespace

const grid_function<double>& distributed_layout::volume() const {
  (void)faces_with(*this, [](face_geometry& g) { g.cell_volume = true; });
  return *state_->volume;
}

const grid_function<vec<double, 3>>& distributed_layout::centroid() const {
  (void)faces_with(*this, [](face_geometry& g) { g.cell_centroid = true; });
  return *state_->centroid;
}

const grid_function<double>& distributed_layout::cell_size() const {
  (void)faces_with(*this, [](face_geometry& g) { g.cell_volume = true; });
  return *state_->cell_size;
}

}  // namespace funcmesh
