// checkpoint_writer: writes a run's state as one parallel HDF5 file per checkpoint, the
// same file for any rank count (each field a dataset in global cell order), atomically
// (NAME.h5.tmp, closed, fsync'ed, renamed), keeping the newest `keep`.
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
struct owned_rows;
}

struct checkpoint_options {
  int keep = 2;             // the newest checkpoints kept (older ones deleted after a write)
  std::string scheme = {};  // the scheme's name, stored with the state
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
  // cannot); the mesh fingerprint and this rank's rows in the file are computed once.
  checkpoint_writer(const distributed_layout& layout, std::filesystem::path dir,
                    checkpoint_options options = {});

  // Collective: writes dir/checkpoint_<step>.h5 with every field (dist_function<double> or
  // dist_function<vec<double, N>> of this layout), then deletes the oldest beyond `keep`.
  // Returns the file. A failure throws on every rank alike and leaves no .h5 behind (the
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

  const std::filesystem::path& directory() const { return dir_; }
  std::uint64_t fingerprint() const { return fingerprint_; }

 private:
  std::filesystem::path write_records(const time::step_info& step,
                                      const std::vector<detail::checkpoint_field>& fields);

  distributed_layout layout_;
  std::filesystem::path dir_;
  checkpoint_options options_;
  std::uint64_t fingerprint_ = 0;
  std::shared_ptr<const detail::owned_rows> rows_;  // this rank's rows, global id order
};

}  // namespace funcmesh
