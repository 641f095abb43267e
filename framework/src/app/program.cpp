// program: the shared options and the parse (CLI11 errors become one usage_error line).
#include <funcmesh/app/program.hpp>

#include <cstdio>
#include <limits>

#include <funcmesh/core/settings.hpp>

namespace funcmesh::app {

program::program(std::string name, std::string summary)
    : name_(std::move(name)), app_(std::move(summary), name_) {
  app_.option_defaults()->always_capture_default();
  app_.get_formatter()->column_width(32);
  // Read by the MPI environment at start-up too (the settings, every rank's host and GPU).
  verbose_option_ = app_.add_flag(
      "--verbose", verbose_,
      "print more: the settings in force (docs/settings.md); under MPI, each rank's host, "
      "rank and GPU");
}

CLI::Option* program::flag(const std::string& name, bool& target, const std::string& help) {
  return app_.add_flag("--" + name, target, help);
}

void program::add_mesh(mesh_options& mesh) {
  option("mesh", mesh.file,
         "a Gmsh .msh file (read on rank 0) or a funcmesh .h5 mesh file (read in parallel; "
         "funcmesh-partition --convert makes one), instead of a built-in mesh");
  option("builtin", mesh.builtin, "built-in mesh")->check(CLI::IsMember(builtin_mesh_names()));
  option("n", mesh.n, "built-in mesh: cells per direction on the unit square or cube")
      ->check(CLI::Range(index_t{1}, std::numeric_limits<index_t>::max()));
  option("perturbation", mesh.perturbation, "built-in mesh: move interior nodes (a fraction of h)")
      ->check(CLI::Range(0.0, mesh_options::max_perturbation));
  option("partitioner", mesh.partitioner,
         "auto: METIS on rank 0 for .msh files, in parallel (PT-Scotch, else Hilbert) for .h5 "
         "files and built-in meshes; or metis, parmetis, ptscotch, hilbert")
      ->check(CLI::IsMember(partitioner_names()));
  option("save-mesh", mesh.save_mesh,
         "write the mesh (a .msh file or a built-in one) to this funcmesh .h5 mesh file first");
}

void program::add_output(output_options& output) {
  option("vtk", output.vtk, "write a VTK series (.vtu per rank, .pvtu, .pvd) into this folder");
  option("png", output.png, "write a picture of the final field (2-D; a slice of 3-D meshes)");
  option("output-every", output.every, "with --vtk: also write every N steps (0: first and last)")
      ->check(CLI::Range(0, std::numeric_limits<int>::max()));
  flag("quiet", output.quiet, "no progress output");
}

void program::add_checkpoints(checkpoint_options& checkpoints) {
  option("checkpoint-every", checkpoints.every,
         "write a checkpoint (parallel HDF5) after every N-th step (0: never)")
      ->check(CLI::Range(std::int64_t{0}, std::numeric_limits<std::int64_t>::max()));
  option("checkpoint-dir", checkpoints.dir, "the folder for checkpoints (created when missing)");
  option("restart", checkpoints.restart,
         "continue from a checkpoint FILE, or 'latest': the newest valid one in "
         "--checkpoint-dir (any rank count)");
  option("keep", checkpoints.keep, "keep the newest K checkpoints")
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
}

void program::add_scheme(std::string& scheme) {
  option("scheme", scheme, "time scheme")
      ->check(CLI::IsMember({"euler", "ssp-rk2", "ssp-rk3", "rk4"}));
}

void program::add_executor(std::string& executor) {
  // The spelling only: whether it can run here (a GPU, this build) is the executor's to
  // say when the program sets it (device_error naming it).
  const CLI::Validator names(
      [](std::string& text) -> std::string {
        if (text == "serial" || text == "openmp" || text == "auto" || text == "cuda") return {};
        if (text.starts_with("cuda:") && text.size() > 5 &&
            text.find_first_not_of("0123456789", 5) == std::string::npos) {
          return {};
        }
        return "'" + text + "' is not serial, openmp, cuda, cuda:D or auto";
      },
      "serial|openmp|cuda[:D]|auto");
  option("executor", executor, "where loops run")->check(names);
}

void program::add_threads(int& threads) {
  option("threads", threads, "threads per rank for OpenMP loops (0: one per core of the rank)")
      ->check(CLI::Range(0, std::numeric_limits<int>::max()));
}

void program::verbose_help(const std::string& help) { verbose_option_->description(help); }

std::string program::help() const { return app_.help(); }

bool program::parse(int argc, const char* const* argv, bool print) {
  try {
    app_.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    if (print) std::fputs(help().c_str(), stdout);
    return false;
  } catch (const CLI::CallForAllHelp&) {
    if (print) std::fputs(app_.help("", CLI::AppFormatMode::All).c_str(), stdout);
    return false;
  } catch (const CLI::ParseError& e) {
    throw usage_error(name_ + ": " + e.what() + " (see --help)");
  }
  return true;
}

std::optional<int> program::parse_or_exit_code(int argc, const char* const* argv) {
  try {
    if (!parse(argc, argv)) return 0;
  } catch (const usage_error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  // What mpi::environment does under MPI: every setting checked before the program starts.
  try {
    settings::load();
  } catch (const error& e) {
    std::fprintf(stderr, "%s: %s\n", name_.c_str(), e.what());
    return 1;
  }
  if (verbose_ || settings::get().verbose.value()) settings::get().print();
  return std::nullopt;
}

}  // namespace funcmesh::app
