// Exact solutions of the Euler equations of an ideal gas, to verify finite-volume solvers:
// the 1-D Riemann problem (Toro, ch. 4), sampled at any x/t, and the 2-D isentropic
// vortex (Shu 1998) advected by its free stream. Host code, header-only, no dependencies.
#pragma once

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace euler_exact {

// A 1-D state in primitive variables.
struct primitive {
  double rho;  // density
  double u;    // velocity
  double p;    // pressure
};

// The star region between the left and right waves: its pressure and velocity, and the
// densities on either side of the contact.
struct star_region {
  double p;
  double u;
  double rho_left;
  double rho_right;
};

// Where the waves are, as speeds x/t. For a shock, head == tail == the shock speed; for a
// rarefaction the head is the edge next to the undisturbed state.
struct wave_speeds {
  double left_head, left_tail;
  double contact;
  double right_tail, right_head;
};

// The exact solution of the Riemann problem with the given left and right states (x < 0
// and x > 0 at t = 0). Throws std::invalid_argument for non-physical data (rho or p not
// positive and finite, gamma <= 1) and std::domain_error when the states would create a
// vacuum (Toro's pressure positivity condition fails), which this solver refuses.
class riemann_problem {
 public:
  riemann_problem(const primitive& left, const primitive& right, double gamma)
      : left_(left), right_(right), gamma_(gamma) {
    validate(left, "left");
    validate(right, "right");
    if (!(gamma > 1.0) || !std::isfinite(gamma)) {
      throw std::invalid_argument("euler_exact: gamma must be > 1, got " + std::to_string(gamma));
    }
    c_left_ = std::sqrt(gamma * left.p / left.rho);
    c_right_ = std::sqrt(gamma * right.p / right.rho);
    const double critical_du = 2.0 * (c_left_ + c_right_) / (gamma - 1.0);
    if (critical_du <= right.u - left.u) {
      throw std::domain_error("euler_exact: the Riemann problem generates a vacuum (u_R - u_L = " +
                              std::to_string(right.u - left.u) +
                              " >= 2 (c_L + c_R) / (gamma - 1) = " + std::to_string(critical_du) +
                              "); vacuum is not handled");
    }
    solve_star();
  }

  const star_region& star() const { return star_; }
  double gamma() const { return gamma_; }

  wave_speeds waves() const {
    wave_speeds w{};
    w.contact = star_.u;
    if (star_.p > left_.p) {
      w.left_head = w.left_tail = left_.u - c_left_ * shock_factor(star_.p / left_.p);
    } else {
      w.left_head = left_.u - c_left_;
      w.left_tail = star_.u - c_left_ * std::pow(star_.p / left_.p, z());
    }
    if (star_.p > right_.p) {
      w.right_head = w.right_tail = right_.u + c_right_ * shock_factor(star_.p / right_.p);
    } else {
      w.right_head = right_.u + c_right_;
      w.right_tail = star_.u + c_right_ * std::pow(star_.p / right_.p, z());
    }
    return w;
  }

  // The solution at x / t = s (Toro, section 4.5).
  primitive sample(double s) const {
    const double g = gamma_;
    const wave_speeds w = waves();
    if (s <= star_.u) {
      if (s <= w.left_head) return left_;
      if (s >= w.left_tail) return {star_.rho_left, star_.u, star_.p};
      // Inside the left rarefaction fan.
      const double base = 2.0 / (g + 1.0) + (g - 1.0) / ((g + 1.0) * c_left_) * (left_.u - s);
      return {left_.rho * std::pow(base, 2.0 / (g - 1.0)),
              2.0 / (g + 1.0) * (c_left_ + 0.5 * (g - 1.0) * left_.u + s),
              left_.p * std::pow(base, 2.0 * g / (g - 1.0))};
    }
    if (s >= w.right_head) return right_;
    if (s <= w.right_tail) return {star_.rho_right, star_.u, star_.p};
    // Inside the right rarefaction fan.
    const double base = 2.0 / (g + 1.0) - (g - 1.0) / ((g + 1.0) * c_right_) * (right_.u - s);
    return {right_.rho * std::pow(base, 2.0 / (g - 1.0)),
            2.0 / (g + 1.0) * (-c_right_ + 0.5 * (g - 1.0) * right_.u + s),
            right_.p * std::pow(base, 2.0 * g / (g - 1.0))};
  }

 private:
  static void validate(const primitive& w, const char* side) {
    if (!(w.rho > 0.0) || !(w.p > 0.0) || !std::isfinite(w.rho) || !std::isfinite(w.p) ||
        !std::isfinite(w.u)) {
      throw std::invalid_argument(std::string("euler_exact: the ") + side +
                                  " state needs finite rho > 0 and p > 0 (vacuum states are "
                                  "not handled)");
    }
  }

  double z() const { return (gamma_ - 1.0) / (2.0 * gamma_); }

  // The shock speed relative to the state, in units of its sound speed.
  double shock_factor(double pressure_ratio) const {
    return std::sqrt((gamma_ + 1.0) / (2.0 * gamma_) * pressure_ratio + z());
  }

  // Toro's f_K(p) and its derivative: the velocity change across the K wave at pressure p
  // (a shock above p_K, a rarefaction below).
  void pressure_function(double p, const primitive& w, double c, double& f, double& df) const {
    const double g = gamma_;
    if (p > w.p) {
      const double a = 2.0 / ((g + 1.0) * w.rho);
      const double b = (g - 1.0) / (g + 1.0) * w.p;
      const double q = std::sqrt(a / (p + b));
      f = (p - w.p) * q;
      df = q * (1.0 - 0.5 * (p - w.p) / (p + b));
    } else {
      const double ratio = p / w.p;
      f = 2.0 * c / (g - 1.0) * (std::pow(ratio, z()) - 1.0);
      df = std::pow(ratio, -(g + 1.0) / (2.0 * g)) / (w.rho * c);
    }
  }

  // Newton's method on f(p) = f_L(p) + f_R(p) + u_R - u_L, which is increasing and
  // concave: from below the root the iterates increase to it, from above the first step
  // lands below it (kept positive by halving). The start is the two-rarefaction
  // approximation, exact when both waves are rarefactions.
  void solve_star() {
    const double du = right_.u - left_.u;
    const double zz = z();
    const double guess =
        std::pow((c_left_ + c_right_ - 0.5 * (gamma_ - 1.0) * du) /
                     (c_left_ / std::pow(left_.p, zz) + c_right_ / std::pow(right_.p, zz)),
                 1.0 / zz);
    double p = guess > 0.0 && std::isfinite(guess) ? guess : 0.5 * (left_.p + right_.p);
    bool converged = false;
    for (int iteration = 0; iteration < 200 && !converged; ++iteration) {
      double f_l = 0.0, df_l = 0.0, f_r = 0.0, df_r = 0.0;
      pressure_function(p, left_, c_left_, f_l, df_l);
      pressure_function(p, right_, c_right_, f_r, df_r);
      double next = p - (f_l + f_r + du) / (df_l + df_r);
      if (!(next > 0.0)) next = 0.5 * p;
      converged = std::abs(next - p) <= 1e-12 * p;  // quadratic: next is exact to rounding
      p = next;
    }
    if (!converged) {
      throw std::runtime_error("euler_exact: Newton's method for p* did not converge");
    }
    double f_l = 0.0, df_l = 0.0, f_r = 0.0, df_r = 0.0;
    pressure_function(p, left_, c_left_, f_l, df_l);
    pressure_function(p, right_, c_right_, f_r, df_r);
    star_.p = p;
    star_.u = 0.5 * (left_.u + right_.u) + 0.5 * (f_r - f_l);
    star_.rho_left = star_density(left_);
    star_.rho_right = star_density(right_);
  }

  // Across a shock (Rankine-Hugoniot) or a rarefaction (isentropic).
  double star_density(const primitive& w) const {
    const double ratio = star_.p / w.p;
    if (star_.p > w.p) {
      const double k = (gamma_ - 1.0) / (gamma_ + 1.0);
      return w.rho * (ratio + k) / (k * ratio + 1.0);
    }
    return w.rho * std::pow(ratio, 1.0 / gamma_);
  }

  primitive left_;
  primitive right_;
  double gamma_;
  double c_left_ = 0.0;
  double c_right_ = 0.0;
  star_region star_{};
};

// The exact solution of the Riemann problem at x / t (for a shock tube with its
// diaphragm at x_d: x_over_t = (x - x_d) / t). Solves for the star region on every call:
// build a riemann_problem to sample many points.
inline primitive sample(const primitive& left, const primitive& right, double gamma,
                        double x_over_t) {
  return riemann_problem(left, right, gamma).sample(x_over_t);
}

// ---------------------------------------------------------------------------------------
// The isentropic vortex (Shu 1998), an exact smooth solution of the 2-D Euler equations:
// a vortex in the free stream (rho, u, v, p) = (1, 1, 1, 1), advected with it, so that at
// time t its centre is (x0 + t, y0 + t). With r^2 = (x - xc)^2 + (y - yc)^2:
//   u = 1 - beta / (2 pi) (y - yc) e^((1 - r^2) / 2),  v = 1 + beta / (2 pi) (x - xc) e^(...)
//   T = 1 - (gamma - 1) beta^2 / (8 gamma pi^2) e^(1 - r^2),  rho = T^(1/(gamma-1)),
//   p = rho^gamma.
// The workshops' case: beta = 5, gamma = 1.4, on a 10 x 10 periodic box (period t = 10).

struct flow_2d {
  double rho;
  double u;
  double v;
  double p;
};

// The vortex at an offset (dx, dy) from its centre.
inline flow_2d isentropic_vortex_at_offset(double dx, double dy, double beta, double gamma) {
  const double pi = std::numbers::pi;
  const double r2 = dx * dx + dy * dy;
  const double swirl = beta / (2.0 * pi) * std::exp(0.5 * (1.0 - r2));
  const double temperature =
      1.0 - (gamma - 1.0) * beta * beta / (8.0 * gamma * pi * pi) * std::exp(1.0 - r2);
  const double rho = std::pow(temperature, 1.0 / (gamma - 1.0));
  return {rho, 1.0 - swirl * dy, 1.0 + swirl * dx, std::pow(rho, gamma)};
}

// On the unbounded plane.
inline flow_2d isentropic_vortex(double x, double y, double t, double x0, double y0,
                                 double beta = 5.0, double gamma = 1.4) {
  return isentropic_vortex_at_offset(x - (x0 + t), y - (y0 + t), beta, gamma);
}

// On a periodic box of periods lx and ly: the nearest image of the moving centre. (This
// is not an exact solution of the periodic problem, but the vortex's tail, of order
// e^(-r^2 / 2), is small there: ~4e-6 in velocity at r = 5 with beta = 5.)
inline flow_2d isentropic_vortex_periodic(double x, double y, double t, double x0, double y0,
                                          double lx, double ly, double beta = 5.0,
                                          double gamma = 1.4) {
  double dx = x - (x0 + t);
  double dy = y - (y0 + t);
  dx -= lx * std::round(dx / lx);
  dy -= ly * std::round(dy / ly);
  return isentropic_vortex_at_offset(dx, dy, beta, gamma);
}

}  // namespace euler_exact
