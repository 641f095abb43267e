// The output options the example programs share: a VTK series (--vtk DIR: a .vtu per rank,
// a .pvtu per output step, one .pvd for ParaView) and pictures (--png FILE: the field, and
// FILE's name + "_partition" for the ranks' parts), and --quiet: the writer behind them.
#pragma once

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>

#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/comm/parallel_output.hpp>
#include <funcmesh/comm/png_output.hpp>

#include <funcmesh/app/program.hpp>

namespace example {

// The output options are funcmesh::app::output_options (program::add_output).
using output_choice = funcmesh::app::output_options;

// "out/heat.png" -> "out/heat_partition.png".
inline std::filesystem::path partition_picture(const std::filesystem::path& png) {
  std::filesystem::path p = png;
  p.replace_filename(png.stem().string() + "_partition" + png.extension().string());
  return p;
}

class field_writer {
 public:
  // Checks at once (on rank 0, agreed) that the picture can be written, so that a long
  // run does not fail at its end.
  field_writer(const output_choice& choice, std::string base,
               const funcmesh::distributed_layout& layout)
      : choice_(choice), layout_(layout) {
    if (!choice.vtk.empty()) series_.emplace(choice.vtk, std::move(base));
    if (choice.png.empty()) return;
    std::string failure;
    if (layout.rank() == 0) {
      const std::filesystem::path folder = std::filesystem::path(choice.png).parent_path().empty()
                                               ? std::filesystem::path(".")
                                               : std::filesystem::path(choice.png).parent_path();
      std::error_code error;
      std::filesystem::create_directories(folder, error);
      if (!std::filesystem::is_directory(folder)) {
        failure = "--png " + choice.png + ": cannot create the folder " + folder.string() +
                  (error ? " (" + error.message() + ")" : std::string());
      }
    }
    funcmesh::mpi::agree(funcmesh::mpi::communicator(layout.comm()), failure);
  }

  // Whether write() writes (--vtk) and finish() draws (--png): a field only these read
  // need not exist otherwise.
  bool writes_series() const { return series_.has_value(); }
  bool draws_picture() const { return !choice_.png.empty(); }

  // Collective: one step of the series (nothing without --vtk).
  template <class... Fields>
  void write(double time, const Fields&... fields) {
    if (series_) series_->write(time, layout_, fields...);
  }

  // Collective: the pictures of `field` and of the partition (with --png), then where
  // everything went.
  void finish(const funcmesh::dist_function<double>& field,
              const funcmesh::png_output_options& options = {}) {
    if (!choice_.png.empty()) {
      funcmesh::write_png(choice_.png, layout_, field, options);
      funcmesh::write_partition_png(partition_picture(choice_.png), layout_, options);
      if (layout_.rank() == 0) {
        std::printf("wrote %s and %s\n", choice_.png.c_str(),
                    partition_picture(choice_.png).string().c_str());
      }
    }
    finish();
  }
  // Collective: where the series went (for a run that draws no picture).
  void finish() {
    if (series_ && layout_.rank() == 0) {
      std::printf("wrote %d VTK step(s): open %s in ParaView\n", series_->steps_written(),
                  series_->pvd_file().string().c_str());
    }
  }

 private:
  output_choice choice_;
  funcmesh::distributed_layout layout_;
  std::optional<funcmesh::vtk_series> series_;
};

}  // namespace example
