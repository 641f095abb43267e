// checkpoint_unavailable: funcmesh::checkpoint in a build without HDF5
// (FUNCMESH_ENABLE_HDF5=OFF): the writer and restart refuse on every rank alike, before
// a run starts, so a program that offers checkpoints is built the same way either way.
#include <funcmesh/checkpoint/checkpoint_writer.hpp>
#include <funcmesh/checkpoint/restart.hpp>

namespace funcmesh {

namespace {

[[noreturn]] void unavailable(const char* who) {
  throw agreed_error(std::string(who) +
                     ": this funcmesh was built without HDF5 (FUNCMESH_ENABLE_HDF5=OFF), so it "
                     "cannot write or read checkpoints; rebuild with a parallel HDF5 "
                     "(Debian: libhdf5-openmpi-dev)");
}

}  // namespace

namespace detail {
struct checkpoint_writer_state {};  // never made: the constructor throws
void fail_next_checkpoint_write_for_testing(const char*) {}
}  // namespace detail

checkpoint_writer::checkpoint_writer(const distributed_layout&, std::filesystem::path,
                                     checkpoint_options) {
  unavailable("funcmesh::checkpoint_writer");
}
checkpoint_writer::checkpoint_writer(checkpoint_writer&&) noexcept = default;
checkpoint_writer::~checkpoint_writer() = default;
std::filesystem::path checkpoint_writer::wait() { unavailable("funcmesh::checkpoint_writer"); }
bool checkpoint_writer::in_flight() const { return false; }
const std::filesystem::path& checkpoint_writer::completed() const {
  unavailable("funcmesh::checkpoint_writer");
}
const std::filesystem::path& checkpoint_writer::directory() const {
  unavailable("funcmesh::checkpoint_writer");
}
std::uint64_t checkpoint_writer::fingerprint() const { unavailable("funcmesh::checkpoint_writer"); }
std::size_t checkpoint_writer::staging_bytes() const { return 0; }

std::filesystem::path checkpoint_writer::write_records(
    const time::step_info&, const std::vector<detail::checkpoint_field>&) {
  unavailable("funcmesh::checkpoint_writer::write");
}

namespace detail {
checkpoint_step restart_records(const distributed_layout&, const std::filesystem::path&,
                                const std::vector<checkpoint_field>&) {
  unavailable("funcmesh::restart");
}
}  // namespace detail

}  // namespace funcmesh
