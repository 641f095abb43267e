// The examples' checkpoints (program::add_checkpoints: --checkpoint-every, --checkpoint-dir,
// --restart FILE|latest, --keep): the restart before a run, the writer the time driver's
// on_checkpoint calls, and the lines they print. The state is whatever fields the program
// names; the step and time come back from the checkpoint.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>

#include <funcmesh/app/program.hpp>
#include <funcmesh/checkpoint/checkpoint.hpp>
#include <funcmesh/comm/distributed_layout.hpp>
#include <funcmesh/core/error.hpp>
#include <funcmesh/time/step_info.hpp>

#include "schemes.hpp"

namespace example {

class checkpoints {
 public:
  // Collective. With --checkpoint-every the folder is created now, so that a run that
  // could not write its checkpoints fails at its start (on every rank alike), not later.
  checkpoints(const funcmesh::app::checkpoint_options& choice, std::string program,
              std::string scheme, const funcmesh::distributed_layout& layout, bool quiet)
      : choice_(choice),
        program_(std::move(program)),
        scheme_(std::move(scheme)),
        layout_(layout),
        quiet_(quiet) {
    if (choice_.every > 0) {
      writer_.emplace(layout_, choice_.dir,
                      funcmesh::checkpoint_options{.keep = choice_.keep, .scheme = scheme_});
    }
  }

  // After every N-th step (0: never), for time::options::checkpoint_every.
  std::int64_t every() const { return choice_.every; }

  // Collective. With --restart: reads `fields` back (the newest valid checkpoint for
  // `latest`) and returns its step and time; else the fresh start, fields untouched. A
  // checkpoint of another scheme is refused: the run would not be the one continued.
  template <class... F>
  run_start resume(F&... fields) {
    if (choice_.restart.empty()) return {};
    const funcmesh::checkpoint_step at =
        funcmesh::restart(layout_, choice_.restart_source(), fields...);
    if (at.scheme != scheme_) {
      throw funcmesh::app::usage_error(
          program_ + ": " + at.file.string() + " was written by the scheme '" + at.scheme +
          "'; this run uses '" + scheme_ + "' (give --scheme " + at.scheme + ")");
    }
    if (layout_.rank() == 0) {
      std::printf("%s: restarted from %s: step %lld, t = %.17g\n", program_.c_str(),
                  at.file.string().c_str(), static_cast<long long>(at.step), at.t);
      std::fflush(stdout);
    }
    return {at.step, at.t, true};
  }

  // Collective: one checkpoint of `fields` at this step (a driver on_checkpoint calls it).
  // It is written while the run goes on; the previous one is completed (and said) first.
  template <class... F>
  void write(const funcmesh::time::step_info& step, const F&... fields) {
    if (!writer_) return;
    const std::filesystem::path before = writer_->completed();
    const std::filesystem::path file = writer_->write(step, fields...);  // the last one first
    const std::filesystem::path& done = writer_->completed();
    if (done != before) said(done, done == file ? step.step : step_in_flight_);
    step_in_flight_ = step.step;
  }

  // Collective, after the time loop: completes the checkpoint in flight (a failure throws
  // on every rank), so that the run's last checkpoint is on the disk when it ends.
  void finish() {
    if (writer_) said(writer_->wait(), step_in_flight_);
  }

 private:
  void said(const std::filesystem::path& file, std::int64_t step) const {
    if (file.empty() || layout_.rank() != 0 || quiet_) return;
    std::printf("%s: checkpoint of step %lld written: %s\n", program_.c_str(),
                static_cast<long long>(step), file.string().c_str());
    std::fflush(stdout);
  }

  funcmesh::app::checkpoint_options choice_;
  std::string program_, scheme_;
  funcmesh::distributed_layout layout_;
  bool quiet_ = false;
  std::optional<funcmesh::checkpoint_writer> writer_;
  std::int64_t step_in_flight_ = 0;
};

}  // namespace example
