// target = base + sum_j c_j k_j (and target += sum_j c_j k_j) over states, as expression
// assignments of up to four terms each: one loop for most stage updates, ceil(n/4) loops
// for long tableau rows. Terms are added left to right, so equal inputs give equal bits.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include <funcmesh/expr/expr.hpp>
#include <funcmesh/time/state.hpp>

namespace funcmesh::time {

// One term c * k of a linear combination.
template <class S>
struct term {
  double coefficient;
  const S* state;
};

namespace detail {

// Calls assign(e) with e = c_0 k_0 + ... + c_{n-1} k_{n-1}, for n in 1..4.
template <class S, class Assign>
void with_terms(const term<S>* t, std::size_t n, Assign&& assign) {
  auto v = [&](std::size_t j) -> decltype(auto) { return values(*t[j].state); };
  switch (n) {
    case 1:
      assign(t[0].coefficient * v(0));
      break;
    case 2:
      assign(t[0].coefficient * v(0) + t[1].coefficient * v(1));
      break;
    case 3:
      assign(t[0].coefficient * v(0) + t[1].coefficient * v(1) + t[2].coefficient * v(2));
      break;
    default:
      assign(t[0].coefficient * v(0) + t[1].coefficient * v(1) + t[2].coefficient * v(2) +
             t[3].coefficient * v(3));
      break;
  }
}

inline constexpr std::size_t terms_per_loop = 4;

}  // namespace detail

// target += sum of terms (nothing when empty).
template <class S>
void add_combination(S& target, const std::vector<term<S>>& terms) {
  for (std::size_t first = 0; first < terms.size(); first += detail::terms_per_loop) {
    const std::size_t n = std::min(detail::terms_per_loop, terms.size() - first);
    detail::with_terms(terms.data() + first, n, [&](const auto& e) { target += e; });
  }
}

// target = base + sum of terms. target must not be base (use add_combination).
template <class S>
void set_combination(S& target, const S& base, const std::vector<term<S>>& terms) {
  if (terms.empty()) {
    target = 1.0 * values(base);
    return;
  }
  const std::size_t n = std::min(detail::terms_per_loop, terms.size());
  detail::with_terms(terms.data(), n, [&](const auto& e) { target = values(base) + e; });
  if (terms.size() > n) {
    add_combination(target, std::vector<term<S>>(terms.begin() + n, terms.end()));
  }
}

}  // namespace funcmesh::time
