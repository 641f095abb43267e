// checkpoint_writer: writes a run's state as one HDF5 file per checkpoint (each rank's
// cells as one block, beside their global ids; read back on any rank count), atomically
// (NAME.h5.tmp, fsync'ed, renamed), in the background while the run goes on, keeping the
// newest `keep`.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <funcmesh/checkpoint/checkpoint_field.hpp>
#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/time/step_info.hpp>

namespace funcmesh {

namespace detail {
struct checkpoint_writer_state;
// For tests: this rank's next write of its rows fails with `reason` (as a full disk or an
// I/O error would make it fail on one rank, after the file was laid out).
void fail_next_checkpoint_write_for_testing(const char* reason);
}  // namespace detail

struct checkpoint_options {
  int keep = 2;             // the newest checkpoints kept (older ones deleted after a write)
  std::string scheme = {};  // the scheme's name, stored with the state
  // true: write() copies the fields into a staging buffer (one copy of their owned values,
  // kept for the next write) and returns; a thread of this rank writes and fsyncs the file
  // while the run goes on, and the next write(), wait() or the writer's end completes it.
  // false: write() returns once the checkpoint is complete.
  bool asynchronous = true;
  // true: each checkpoint gets checkpoint_<step>.xdmf beside it, and the directory, once
  // per mesh and rank count, the mesh it refers to (mesh_<hash>.h5: each rank's points and
  // owned cells), so that ParaView and VisIt open a checkpoint's fields on the mesh.
  bool xdmf = true;
};

// The step a checkpoint holds, as restart returns it.
struct checkpoint_step {
  std::int64_t step = 0;
  double t = 0.0;
  double dt = 0.0;
  std::string scheme;
  std::filesystem::path file;  // the checkpoint read
};

class checkpoint_writer {
 public:
  // Collective over the layout: rank 0 creates `dir` (an error on every rank alike when it
  // cannot) and deletes the .tmp files a stopped run left there; the mesh fingerprint and
  // this rank's block in the file are computed once.
  checkpoint_writer(const distributed_layout& layout, std::filesystem::path dir,
                    checkpoint_options options = {});
  checkpoint_writer(checkpoint_writer&&) noexcept;
  checkpoint_writer& operator=(checkpoint_writer&&) = delete;  // would drop one in flight
  // Collective when a checkpoint is in flight or old ones are being deleted: completes as
  // wait() does (a failure is printed on rank 0's stderr). While an exception propagates,
  // only this rank's threads are joined: a file in flight stays a .tmp, never taken for a
  // checkpoint.
  ~checkpoint_writer();

  // Collective: first completes the checkpoint in flight (its failure throws here), then
  // writes dir/checkpoint_<step>.h5 with every field (dist_function<double> or
  // dist_function<vec<double, N>> of this layout); once it is complete, the oldest beyond
  // `keep` are deleted. Returns the file: asynchronous, it is complete after the next
  // write() or wait(). A failure throws on every rank alike and leaves no .h5 behind (the
  // newest complete checkpoint stays the latest).
  template <class... F>
  std::filesystem::path write(const time::step_info& step, const F&... fields) {
    auto accesses = std::make_tuple(fields.read()...);  // held while the file is written
    std::vector<detail::checkpoint_field> records;
    std::apply(
        [&](const auto&... access) { (records.push_back(detail::record_of(fields, access)), ...); },
        accesses);
    return write_records(step, records);
  }

  // Collective: waits until the checkpoint in flight is on the disk under its name and the
  // oldest beyond `keep` are deleted (write() leaves their deletion to a thread of rank
  // 0). A failure throws an agreed_error on every rank (the .tmp of a checkpoint that
  // failed is deleted). Returns its file, or an empty path when none was in flight.
  std::filesystem::path wait();
  // Whether a checkpoint was started and not yet completed by wait() or write().
  bool in_flight() const;
  // The last checkpoint completed (named), by write() or wait(); empty before the first.
  const std::filesystem::path& completed() const;

  const std::filesystem::path& directory() const;
  std::uint64_t fingerprint() const;
  // The staging buffer's size (asynchronous: the owned values of the last write's fields).
  std::size_t staging_bytes() const;

 private:
  std::filesystem::path write_records(const time::step_info& step,
                                      const std::vector<detail::checkpoint_field>& fields);

  std::unique_ptr<detail::checkpoint_writer_state> state_;
};

}  // namespace funcmesh
