// program: the command line every funcmesh program shares, on CLI11: --help, the standard
// options (mesh, output, scheme, executor, threads, --verbose) each added by one call, the
// program's own options, --x v and --x=v alike, and one rule for mistakes: usage_error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include <CLI/CLI.hpp>

#include <funcmesh/app/mesh_options.hpp>
#include <funcmesh/core/error.hpp>

namespace funcmesh::app {

// --vtk DIR, --png FILE, --output-every N, --quiet.
struct output_options {
  std::string vtk;
  std::string png;
  int every = 0;  // with --vtk: also every N steps (0: the first and last only)
  bool quiet = false;
};

// --checkpoint-every N, --checkpoint-dir DIR, --restart FILE|latest, --keep K: what a
// program hands to funcmesh::checkpoint_writer and funcmesh::restart (the checkpoint
// module; the frame only reads the command line).
struct checkpoint_options {
  std::int64_t every = 0;           // a checkpoint after every N-th step (0: never)
  std::string dir = "checkpoints";  // where checkpoints go, and where `latest` looks
  std::string restart;              // a checkpoint file, "latest", or empty: a fresh start
  int keep = 2;                     // the newest K checkpoints kept
  // The file or directory restart() reads: `dir` for "latest".
  std::string restart_source() const { return restart == "latest" ? dir : restart; }
};

class program {
 public:
  // `name` starts every message ("heat: --n: ..."); `summary` heads --help.
  program(std::string name, std::string summary);
  program(const program&) = delete;
  program& operator=(const program&) = delete;

  const std::string& name() const { return name_; }
  // CLI11 itself, for what the calls below do not cover (groups, validators, subcommands).
  CLI::App& cli() { return app_; }

  // --name VALUE into `target`, its current value shown as the default in --help. The
  // value is converted and checked by CLI11; add validators on the returned option
  // (->check(CLI::PositiveNumber)).
  template <class T>
  CLI::Option* option(const std::string& name, T& target, const std::string& help) {
    return app_.add_option("--" + name, target, help)->capture_default_str();
  }
  // --name: `target` becomes true.
  CLI::Option* flag(const std::string& name, bool& target, const std::string& help);

  // The standard options.
  void add_mesh(mesh_options& mesh);
  void add_output(output_options& output);
  void add_checkpoints(checkpoint_options& checkpoints);
  // --scheme: euler, ssp-rk2, ssp-rk3 or rk4.
  void add_scheme(std::string& scheme);
  // --executor: serial, openmp, cuda, cuda:D or auto (parse_executor's names).
  void add_executor(std::string& executor);
  // --threads N: threads per rank for OpenMP loops (0: the default rule).
  void add_threads(int& threads);
  // What --verbose prints besides the MPI environment's start-up lines.
  void verbose_help(const std::string& help);

  // Parses argv. False after --help (printed when `print`: rank 0 under MPI). Throws
  // usage_error with one line, "NAME: " + CLI11's reason + " (see --help)", for anything
  // CLI11 refuses (an unknown option, a missing or unconvertible value, a failed check).
  bool parse(int argc, const char* const* argv, bool print = true);
  // parse() for a program without MPI: nullopt to go on, else the exit code to return
  // from main: 0 after --help (printed), 2 after a mistake (its line on stderr), 1 after
  // a refused FUNCMESH_* value (settings::load; its line on stderr). With --verbose (or
  // FUNCMESH_VERBOSE=1) it prints the settings in force (settings::print).
  std::optional<int> parse_or_exit_code(int argc, const char* const* argv);
  bool verbose() const { return verbose_; }
  // --help's text.
  std::string help() const;

 private:
  std::string name_;
  CLI::App app_;
  bool verbose_ = false;
  CLI::Option* verbose_option_ = nullptr;
};

}  // namespace funcmesh::app
