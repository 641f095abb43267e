// The progress printer: a live bar on terminals, lines elsewhere, at most once per
// interval of wall time, always the last step.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <funcmesh/time/progress_printer.hpp>

namespace funcmesh::time {

namespace {

// "12.3 s", "4 min 05 s", "2 h 03 min": short enough for one line.
std::string duration(double seconds) {
  char text[32];
  if (!std::isfinite(seconds) || seconds < 0.0) return "?";
  if (seconds < 60.0) {
    std::snprintf(text, sizeof text, "%.1f s", seconds);
  } else if (seconds < 3600.0) {
    const long s = std::lround(seconds);
    std::snprintf(text, sizeof text, "%ld min %02ld s", s / 60, s % 60);
  } else {
    const long m = std::lround(seconds / 60.0);
    std::snprintf(text, sizeof text, "%ld h %02ld min", m / 60, m % 60);
  }
  return text;
}

// A terminal a person watches: mpirun hands every rank a pseudo-terminal even when its own
// output goes to a file, so a terminal also needs TERM set (CI and batch jobs have none).
bool interactive(std::FILE* stream) {
  if (stream == nullptr || isatty(fileno(stream)) != 1) return false;
  const char* term = std::getenv("TERM");
  return term != nullptr && *term != '\0' && std::string_view(term) != "dumb";
}

}  // namespace

progress_printer::progress_printer(bool prints, double interval, bool quiet, std::FILE* stream,
                                   style how)
    : active_(prints && !quiet && stream != nullptr),
      interval_(std::max(0.0, interval)),
      stream_(stream),
      bar_(how == style::bar || (how == style::automatic && interactive(stream))) {}

void progress_printer::operator()(const step_info& s) {
  if (!active_) return;
  if (!s.last && last_print_ >= 0.0 && s.wall - last_print_ < interval_) return;
  last_print_ = s.wall;
  ++printed_;

  const double f = std::clamp(s.fraction, 0.0, 1.0);
  const double eta = f > 0.0 ? s.wall * (1.0 - f) / f : -1.0;
  char residual[32] = "";
  if (s.residual) std::snprintf(residual, sizeof residual, "  residual %.3e", *s.residual);
  if (bar_) {
    constexpr int width = 24;
    const int filled = static_cast<int>(f * width + 1e-9);  // 0.4999... (t summed) is half
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(width, '.');
    // \r and a cleared line end: the bar redraws in place; the last one keeps its line.
    std::fprintf(stream_, "\r[%s] %3.0f%%  step %lld  t %.4e  dt %.3e%s  wall %s  eta %s\x1b[K%s",
                 bar.c_str(), 100.0 * f, static_cast<long long>(s.step), s.t, s.dt, residual,
                 duration(s.wall).c_str(), s.last ? "0 s" : duration(eta).c_str(),
                 s.last ? "\n" : "");
  } else {
    std::fprintf(stream_, "step %lld  t %.6e  dt %.3e%s  wall %s  eta %s\n",
                 static_cast<long long>(s.step), s.t, s.dt, residual, duration(s.wall).c_str(),
                 s.last ? "0 s" : duration(eta).c_str());
  }
  std::fflush(stream_);
}

}  // namespace funcmesh::time
