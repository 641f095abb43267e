// app::program: the standard options and a program's own parse in both forms (--x v,
// --x=v), show their defaults in --help, and every mistake is one usage_error line that
// names the program and the option.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <funcmesh/app.hpp>

namespace {

namespace app = funcmesh::app;

// argv from words (argv[0] is the program).
struct command_line {
  explicit command_line(std::vector<std::string> words) : words_(std::move(words)) {
    for (auto& w : words_) pointers_.push_back(w.c_str());
  }
  int argc() const { return static_cast<int>(pointers_.size()); }
  const char* const* argv() const { return pointers_.data(); }

 private:
  std::vector<std::string> words_;
  std::vector<const char*> pointers_;
};

struct settings {
  app::mesh_options mesh;
  app::output_options output;
  std::string scheme = "ssp-rk3";
  std::string executor = "auto";
  int threads = 0;
  int iterations = 10;
  bool fast = false;
};

bool parse(app::program& p, settings& s, std::vector<std::string> words) {
  p.add_mesh(s.mesh);
  p.add_output(s.output);
  p.add_scheme(s.scheme);
  p.add_executor(s.executor);
  p.add_threads(s.threads);
  p.option("iterations", s.iterations, "iterations");
  p.flag("fast", s.fast, "go fast");
  words.insert(words.begin(), "solver");
  const command_line line(words);
  return p.parse(line.argc(), line.argv(), false);
}

std::string usage_message(std::vector<std::string> words) {
  app::program p("solver", "A test solver.");
  settings s;
  try {
    parse(p, s, std::move(words));
  } catch (const app::usage_error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(app_program, parses_the_standard_options_and_the_programs_own_in_both_forms) {
  app::program p("solver", "A test solver.");
  settings s;
  ASSERT_TRUE(
      parse(p, s,
            {"--builtin", "box3d-tet", "--n=12", "--perturbation", "0.1", "--vtk=out", "--png",
             "u.png", "--output-every", "5", "--quiet", "--scheme=rk4", "--executor", "serial",
             "--threads=2", "--iterations", "7", "--fast", "--verbose"}));
  EXPECT_EQ(s.mesh.builtin, "box3d-tet");
  EXPECT_EQ(s.mesh.n, 12);
  EXPECT_EQ(s.mesh.perturbation, 0.1);
  EXPECT_EQ(s.mesh.describe(), "box3d-tet 12^d");
  EXPECT_EQ(s.output.vtk, "out");
  EXPECT_EQ(s.output.png, "u.png");
  EXPECT_EQ(s.output.every, 5);
  EXPECT_TRUE(s.output.quiet);
  EXPECT_EQ(s.scheme, "rk4");
  EXPECT_EQ(s.executor, "serial");
  EXPECT_EQ(s.threads, 2);
  EXPECT_EQ(s.iterations, 7);
  EXPECT_TRUE(s.fast);
  EXPECT_TRUE(p.verbose());
}

TEST(app_program, defaults_stay_and_help_shows_them) {
  app::program p("solver", "A test solver.");
  settings s;
  ASSERT_TRUE(parse(p, s, {}));
  EXPECT_EQ(s.mesh.n, 64);
  EXPECT_EQ(s.iterations, 10);
  EXPECT_FALSE(p.verbose());
  const std::string help = p.help();
  EXPECT_NE(help.find("Usage: solver"), std::string::npos) << help;
  EXPECT_NE(help.find("A test solver."), std::string::npos);
  EXPECT_NE(help.find("--iterations INT=10"), std::string::npos) << help;
  EXPECT_NE(help.find("box2d-quad"), std::string::npos);
  app::program q("solver", "A test solver.");
  settings t;
  EXPECT_FALSE(parse(q, t, {"--help"}));  // --help: nothing to run
}

TEST(app_program, every_mistake_is_one_line_naming_the_program_and_the_option) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--iterations", "abc"}, "--iterations"},
      {{"--iterations"}, "--iterations"},
      {{"--no-such-option"}, "--no-such-option"},
      {{"--n", "0"}, "--n"},
      {{"--perturbation", "0.5"}, "--perturbation"},
      {{"--builtin", "sphere"}, "--builtin"},
      {{"--scheme", "rk5"}, "--scheme"},
      {{"--executor", "gpu"}, "--executor"},
      {{"--threads", "-1"}, "--threads"},
      {{"--output-every", "-2"}, "--output-every"},
  };
  for (const auto& [words, option] : cases) {
    const std::string message = usage_message(words);
    EXPECT_EQ(message.rfind("solver: ", 0), 0u) << message;
    EXPECT_NE(message.find(option), std::string::npos) << message;
    EXPECT_NE(message.find("(see --help)"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
  }
}

TEST(app_program, mesh_options_set_in_code_are_checked_too) {
  app::mesh_options mesh;
  mesh.n = 0;
  EXPECT_THROW(mesh.check(), app::usage_error);
  mesh.n = 4;
  mesh.builtin = "sphere";
  EXPECT_THROW(mesh.check(), app::usage_error);
  mesh.builtin = "box2d-tri";
  mesh.perturbation = 0.3;
  EXPECT_THROW(mesh.check(), app::usage_error);
  mesh.perturbation = 0.2;
  EXPECT_NO_THROW(mesh.check());
  mesh.file = "channel.msh";
  EXPECT_EQ(mesh.describe(), "channel.msh");
}

}  // namespace
