// progress_printer: a progress callback that prints step, time, dt, residual, wall time
// and ETA at most once per interval (and always the last step): a live one-line bar
// (\r) when the stream is a terminal, plain lines otherwise. It never calls MPI.
#pragma once

#include <cstdio>

#include <funcmesh/time/step_info.hpp>

namespace funcmesh::time {

class progress_printer {
 public:
  enum class style { automatic, bar, lines };

  // prints: whether this process prints at all (the caller passes rank == 0);
  // interval: wall seconds between prints; quiet: print nothing (--quiet).
  explicit progress_printer(bool prints, double interval = 1.0, bool quiet = false,
                            std::FILE* stream = stdout, style how = style::automatic);

  void operator()(const step_info& s);

  bool bar() const { return bar_; }
  long printed() const { return printed_; }

 private:
  bool active_;
  double interval_;
  std::FILE* stream_;
  bool bar_;
  double last_print_ = -1.0;
  long printed_ = 0;
};

}  // namespace funcmesh::time
