// The driver: landing exactly on t_end, callback counts, dt callbacks, residuals (injected,
// or a scheme's own), the errors it refuses with (naming the field or the step), user
// schemes with their own step, and the progress printer's output.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "time_test_support.hpp"

namespace {

using namespace time_test;

// Each file instantiates its own suite (a shared fixture would run every test twice).
class driving : public on_executor {};
namespace ft = funcmesh::time;
using gf = fm::grid_function<double>;

auto linear_rhs(const decay& p) {
  return [&p](const gf& v) { return p.lambda * v; };
}

TEST_P(driving, t_end_is_reached_exactly) {
  decay p(10);
  std::vector<ft::step_info> seen;
  ft::driver run(ft::rk4{}, {.t_end = 1.0, .dt = 0.3});
  const auto done = run(p.y, linear_rhs(p), [&](const ft::step_info& s) { seen.push_back(s); });
  EXPECT_EQ(done.steps, 4);
  EXPECT_EQ(done.t, 1.0);
  ASSERT_EQ(seen.size(), 2u);  // the initial and the final state
  EXPECT_EQ(seen.back().t, 1.0);
  EXPECT_TRUE(seen.back().last);
  EXPECT_NEAR(seen.back().dt, 0.1, 1e-15);
  EXPECT_EQ(seen.back().fraction, 1.0);

  // A dt that divides the span: no sliver of a step from rounding in t.
  ft::driver tenths(ft::forward_euler{}, {.t_end = 1.0, .dt = 0.1});
  const auto ten = tenths(p.y, linear_rhs(p));
  EXPECT_EQ(ten.steps, 10);
  EXPECT_EQ(ten.t, 1.0);

  // A varying dt from a callback (the caller's CFL bound), clipped at the end.
  ft::driver cfl(ft::ssp_rk3{}, {.t_end = 2.5, .t_start = 1.0});
  int calls = 0;
  const auto varied = cfl(p.y, linear_rhs(p), ft::dt_callback([&](double t, const gf& u) {
                            ++calls;
                            EXPECT_EQ(u.owned_size(), 10);
                            return 0.1 + 0.05 * t;
                          }));
  EXPECT_EQ(varied.t, 2.5);
  EXPECT_EQ(calls, varied.steps);
}

TEST_P(driving, callbacks_fire_at_their_intervals) {
  decay p(10);
  int outputs = 0, checkpoints = 0, progress = 0;
  std::vector<std::int64_t> output_steps;
  ft::driver run(ft::ssp_rk2{},
                 {.steps = 10, .dt = 0.01, .output_every = 3, .checkpoint_every = 4});
  run(p.y, linear_rhs(p), ft::on_output([&](const ft::step_info& s) {
        ++outputs;
        output_steps.push_back(s.step);
      }),
      ft::on_checkpoint([&](const ft::step_info&) { ++checkpoints; }),
      ft::on_progress([&](const ft::step_info&) { ++progress; }));
  EXPECT_EQ(output_steps, (std::vector<std::int64_t>{0, 3, 6, 9, 10}));
  EXPECT_EQ(outputs, 5);
  EXPECT_EQ(checkpoints, 2);  // after steps 4 and 8
  EXPECT_EQ(progress, 10);

  // Without the initial and final outputs; progress every 4 steps and the last; callbacks
  // from the options too.
  outputs = checkpoints = progress = 0;
  ft::driver quiet(ft::ssp_rk2{}, {.steps = 10,
                                   .dt = 0.01,
                                   .output_every = 3,
                                   .output_initial = false,
                                   .output_final = false,
                                   .progress_every = 4,
                                   .output = [&](const ft::step_info&) { ++outputs; },
                                   .progress = [&](const ft::step_info&) { ++progress; }});
  quiet(p.y, linear_rhs(p));
  EXPECT_EQ(outputs, 3);
  EXPECT_EQ(progress, 3);  // steps 4, 8 and 10

  // An output interval in time: t passes 0.25, 0.5, 0.75 and 1 at steps 3, 5, 8, 10.
  output_steps.clear();
  ft::driver timed(ft::forward_euler{}, {.t_end = 1.0, .dt = 0.1, .output_interval = 0.25});
  timed(p.y, linear_rhs(p), [&](const ft::step_info& s) { output_steps.push_back(s.step); });
  EXPECT_EQ(output_steps, (std::vector<std::int64_t>{0, 3, 5, 8, 10}));
}

TEST_P(driving, an_injected_residual_reaches_the_callbacks) {
  decay p(100);
  std::vector<double> residuals;
  ft::driver run(ft::forward_euler{}, {.steps = 5, .dt = 0.1, .progress_every = 2});
  // The caller's norm (with MPI it would add a global reduction): max |u_new - u_old|.
  auto change = [](const gf& now, const gf& before) { return fm::max(fm::abs(now - before)); };
  run(p.y, linear_rhs(p), ft::residual_norm(change), ft::on_progress([&](const ft::step_info& s) {
        ASSERT_TRUE(s.residual.has_value());
        residuals.push_back(*s.residual);
      }));
  ASSERT_EQ(residuals.size(), 3u);  // steps 2, 4 and 5
  // y' = lambda y, |lambda| <= 1.5: the first change is dt * 1.5 * y, smaller later.
  EXPECT_GT(residuals[0], 0.0);
  EXPECT_LT(residuals[0], 0.15);
  EXPECT_LT(residuals[2], residuals[0]);
}

// A run restarted from step 4's state (first_step = 4, t_start its time) numbers its steps
// as the uninterrupted run does, fires callbacks at the same absolute steps, and ends in
// the same bits.
TEST_P(driving, a_run_from_a_first_step_continues_the_step_numbers) {
  decay whole(50), restarted(50);
  std::vector<std::int64_t> whole_checkpoints, later_checkpoints, later_outputs;
  ft::driver uninterrupted(ft::rk4{}, {.steps = 10, .dt = 0.05, .checkpoint_every = 4});
  uninterrupted(whole.y, linear_rhs(whole), ft::on_checkpoint([&](const ft::step_info& s) {
                  whole_checkpoints.push_back(s.step);
                }));

  ft::driver first_part(ft::rk4{}, {.steps = 4, .dt = 0.05});
  const auto part = first_part(restarted.y, linear_rhs(restarted));
  ASSERT_EQ(part.steps, 4);
  std::vector<double> fractions;
  ft::driver second_part(ft::rk4{}, {.steps = 6,
                                     .dt = 0.05,
                                     .t_start = part.t,
                                     .first_step = 4,
                                     .output_every = 3,
                                     .checkpoint_every = 4});
  const auto rest = second_part(
      restarted.y, linear_rhs(restarted), ft::on_output([&](const ft::step_info& s) {
        later_outputs.push_back(s.step);
        fractions.push_back(s.fraction);
      }),
      ft::on_checkpoint([&](const ft::step_info& s) { later_checkpoints.push_back(s.step); }));
  EXPECT_EQ(rest.steps, 10);
  EXPECT_EQ(whole_checkpoints, (std::vector<std::int64_t>{4, 8}));
  EXPECT_EQ(later_checkpoints, (std::vector<std::int64_t>{8}));  // not 4 again, not 12
  EXPECT_EQ(later_outputs, (std::vector<std::int64_t>{4, 6, 9, 10}));
  EXPECT_EQ(fractions.front(), 0.0);
  EXPECT_EQ(fractions.back(), 1.0);
  const std::vector<double> a = whole.y.to_vector(), b = restarted.y.to_vector();
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i], b[i]) << "cell " << i;
}

template <class Make>
void expect_refused(Make make, const std::string& needle) {
  try {
    make();
    ADD_FAILURE() << "accepted; expected an error containing '" << needle << "'";
  } catch (const ft::time_error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST_P(driving, bad_options_are_refused_naming_the_field_or_step) {
  decay p(10);
  expect_refused([] { ft::driver run(ft::rk4{}, {.t_end = 1.0, .steps = 10, .dt = 0.1}); },
                 "both t_end");
  expect_refused([] { ft::driver run(ft::rk4{}, {.dt = 0.1}); }, "neither t_end nor steps");
  expect_refused([] { ft::driver run(ft::rk4{}, {.steps = 3, .dt = -0.1}); }, "dt = -0.1");
  expect_refused([] { ft::driver run(ft::rk4{}, {.t_end = -1.0, .dt = 0.1}); }, "t_end = -1");
  expect_refused([] { ft::driver run(ft::rk4{}, {.steps = -2, .dt = 0.1}); }, "negative");
  expect_refused([] { ft::driver run(ft::rk4{}, {.steps = 2, .dt = 0.1, .first_step = -1}); },
                 "first_step = -1");
  expect_refused(
      [&] {
        ft::driver run(ft::rk4{}, {.steps = 3});
        run(p.y, linear_rhs(p));
      },
      "no dt callback");
  expect_refused(
      [&] {
        ft::driver run(ft::rk4{}, {.steps = 3, .dt = 0.1});
        run(p.y, linear_rhs(p), ft::dt_callback([](double) { return 0.1; }));
      },
      "both a fixed dt");
  for (double bad : {std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::infinity(), 0.0, -1.0}) {
    int steps_taken = 0;
    expect_refused(
        [&] {
          ft::driver run(ft::rk4{}, {.t_end = 10.0});
          run(p.y, linear_rhs(p), ft::dt_callback([&](double t) { return t < 0.25 ? 0.1 : bad; }),
              ft::on_progress([&](const ft::step_info&) { ++steps_taken; }));
        },
        "for step 4 (at t = 0.3");
    EXPECT_EQ(steps_taken, 3);
  }
  // A dt below the spacing of doubles at t would never reach t_end: refused, not a hang.
  expect_refused(
      [&] {
        ft::driver run(ft::forward_euler{}, {.t_end = 1e10 + 1e-5, .dt = 1e-7, .t_start = 1e10});
        run(p.y, linear_rhs(p));
      },
      "leaves t unchanged");
}

// A scheme that computes its step's residual itself (as a pseudo-time iteration does):
// forward Euler, with max |dt rhs(u)| from the step's own k when the driver wants it.
struct euler_with_residual {
  static constexpr int storage = 1;
  std::vector<bool>* wanted;       // per step: whether the driver asked for the residual
  std::vector<double>* residuals;  // those it returned when asked
  template <class S, class F>
  double step(S& u, const ft::rhs_function<F>& rhs, double t, double dt, ft::stage_storage<S>& work,
              bool want) const {
    S& k = work[0];
    k = rhs(u, t);
    u += dt * values(k);
    wanted->push_back(want);
    if (!want) return 0.0;  // the others skip its cost
    residuals->push_back(dt * fm::max(fm::abs(k)));
    return residuals->back();
  }
};

TEST_P(driving, a_scheme_s_own_residual_reaches_the_callbacks_at_their_steps) {
  decay p(100);
  std::vector<bool> wanted;
  std::vector<double> residuals, checkpointed, progressed;
  ft::driver run(euler_with_residual{&wanted, &residuals},
                 {.steps = 7, .dt = 0.1, .checkpoint_every = 5, .progress_every = 3});
  run(p.y, linear_rhs(p), ft::on_checkpoint([&](const ft::step_info& s) {
        checkpointed.push_back(s.residual.value());
      }),
      ft::on_progress([&](const ft::step_info& s) { progressed.push_back(s.residual.value()); }));
  // Asked at steps 3 and 6 (progress), 5 (checkpoint) and 7 (the last) only.
  EXPECT_EQ(wanted, (std::vector<bool>{false, false, true, false, true, true, true}));
  ASSERT_EQ(residuals.size(), 4u);
  EXPECT_EQ(checkpointed, (std::vector<double>{residuals[1]}));
  EXPECT_EQ(progressed, (std::vector<double>{residuals[0], residuals[2], residuals[3]}));
  EXPECT_GT(residuals[0], residuals[3]);  // y decays, and its change with it
  EXPECT_GT(residuals[3], 0.0);
  // A residual_norm besides the scheme's own would be a second residual: refused.
  expect_refused(
      [&] {
        run(p.y, linear_rhs(p),
            ft::residual_norm([](const gf& a, const gf& b) { return fm::max(fm::abs(a - b)); }));
      },
      "computes its own residual");
}

// A user scheme with its own step: the explicit midpoint rule, two registers.
struct midpoint {
  static constexpr int storage = 2;
  std::string name() const { return "midpoint"; }
  template <class S, class F>
  void step(S& u, const ft::rhs_function<F>& rhs, double t, double dt,
            ft::stage_storage<S>& work) const {
    S& k = work[0];
    S& y = work[1];
    k = rhs(u, t);
    y = values(u) + (0.5 * dt) * values(k);
    k = rhs(y, t + 0.5 * dt);
    u += dt * values(k);
  }
};

TEST_P(driving, a_user_step_equals_its_tableau_bitwise) {
  decay a(50), b(50);
  ft::driver own(midpoint{}, {.steps = 20, .dt = 0.05});
  own(a.y, linear_rhs(a));
  ft::driver tab(ft::explicit_rk{{{0, 0}, {0.5, 0}}, {0, 1}}, {.steps = 20, .dt = 0.05});
  tab(b.y, linear_rhs(b));
  EXPECT_EQ(a.y.to_vector(), b.y.to_vector());
}

std::string capture(bool prints, bool quiet, ft::progress_printer::style how, double interval) {
  std::FILE* file = std::tmpfile();
  ft::progress_printer printer(prints, interval, quiet, file, how);
  for (int k = 1; k <= 4; ++k) {
    ft::step_info s{k, 0.25 * k, 0.25, 0.5 * k, 0.25 * k, k == 4, 1e-3 / k};
    printer(s);
  }
  std::rewind(file);
  std::string text;
  for (int c = std::fgetc(file); c != EOF; c = std::fgetc(file))
    text.push_back(static_cast<char>(c));
  std::fclose(file);
  return text;
}

TEST_P(driving, the_progress_printer_prints_lines_or_a_bar) {
  using style = ft::progress_printer::style;
  const std::string lines = capture(true, false, style::automatic, 0.0);  // a file: lines
  EXPECT_NE(lines.find("step 2  t 5.000000e-01  dt 2.500e-01  residual 5.000e-04"),
            std::string::npos)
      << lines;
  EXPECT_NE(lines.find("eta 1.0 s"), std::string::npos) << lines;  // half done after 1 s
  EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'), 4);
  EXPECT_EQ(lines.find('\r'), std::string::npos);

  const std::string bar = capture(true, false, style::bar, 0.0);
  EXPECT_NE(bar.find("\r[############............]  50%"), std::string::npos) << bar;
  EXPECT_EQ(std::count(bar.begin(), bar.end(), '\n'), 1);  // only the last keeps its line

  // An interval of 1 s: steps 1 (the first), 3 (1 s later) and 4 (the last).
  const std::string sparse = capture(true, false, style::lines, 1.0);
  EXPECT_EQ(std::count(sparse.begin(), sparse.end(), '\n'), 3) << sparse;

  EXPECT_EQ(capture(false, false, style::lines, 0.0), "");  // not rank 0
  EXPECT_EQ(capture(true, true, style::lines, 0.0), "");    // --quiet
}

INSTANTIATE_TEST_SUITE_P(host, driving, ::testing::ValuesIn(host_executors()),
                         test_support::executor_name{});

}  // namespace
