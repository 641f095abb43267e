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

checkpoint_writer::checkpoint_writer(const distributed_layout& layout, std::filesystem::path dir,
                                     checkpoint_options options)
    : layout_(layout), dir_(std::move(dir)), options_(std::move(options)) {
  unavailable("funcmesh::checkpoint_writer");
}

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
