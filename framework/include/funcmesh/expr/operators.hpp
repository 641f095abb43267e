// Arithmetic (+ - * /) between expressions and scalars, unary minus, math functions
// (sqrt, abs, exp, ..., min, max, pow) and where(cond, a, b): each builds a zip_expr with a
// named functor, so the expression stays lazy and the kernel calls the operation inline.
#pragma once

#include <cmath>
#include <type_traits>

#include <funcmesh/expr/monad.hpp>
#include <funcmesh/expr/zip_expr.hpp>

namespace funcmesh {

namespace ops {
// Named functors rather than lambdas: nvcc needs device code it can name.
#define FUNCMESH_BINARY_OPERATION(name, expression, cost)                     \
  struct name {                                                               \
    static constexpr index_t work = cost;                                     \
    template <class A, class B>                                               \
    FUNCMESH_DEVICE constexpr auto operator()(const A& a, const B& b) const { \
      return expression;                                                      \
    }                                                                         \
  };
FUNCMESH_BINARY_OPERATION(plus, a + b, 0)
FUNCMESH_BINARY_OPERATION(minus, a - b, 0)
FUNCMESH_BINARY_OPERATION(multiplies, a* b, 0)
FUNCMESH_BINARY_OPERATION(divides, a / b, 1)
FUNCMESH_BINARY_OPERATION(less, a < b, 0)
FUNCMESH_BINARY_OPERATION(less_equal, a <= b, 0)
FUNCMESH_BINARY_OPERATION(greater, a > b, 0)
FUNCMESH_BINARY_OPERATION(greater_equal, a >= b, 0)
FUNCMESH_BINARY_OPERATION(equal_to, a == b, 0)
FUNCMESH_BINARY_OPERATION(minimum, b < a ? b : a, 0)
FUNCMESH_BINARY_OPERATION(maximum, a < b ? b : a, 0)
FUNCMESH_BINARY_OPERATION(power, std::pow(a, b), 24)
FUNCMESH_BINARY_OPERATION(logical_and, a&& b, 0)
FUNCMESH_BINARY_OPERATION(logical_or, a || b, 0)
#undef FUNCMESH_BINARY_OPERATION

#define FUNCMESH_UNARY_OPERATION(name, expression, cost)          \
  struct name {                                                   \
    static constexpr index_t work = cost;                         \
    template <class A>                                            \
    FUNCMESH_DEVICE constexpr auto operator()(const A& a) const { \
      return expression;                                          \
    }                                                             \
  };
FUNCMESH_UNARY_OPERATION(negate, -a, 0)
FUNCMESH_UNARY_OPERATION(logical_not, !a, 0)
FUNCMESH_UNARY_OPERATION(square_root, std::sqrt(a), 4)
FUNCMESH_UNARY_OPERATION(absolute, std::abs(a), 0)
FUNCMESH_UNARY_OPERATION(exponential, std::exp(a), 16)
FUNCMESH_UNARY_OPERATION(logarithm, std::log(a), 16)
FUNCMESH_UNARY_OPERATION(sine, std::sin(a), 16)
FUNCMESH_UNARY_OPERATION(cosine, std::cos(a), 16)
FUNCMESH_UNARY_OPERATION(tangent, std::tan(a), 16)
FUNCMESH_UNARY_OPERATION(hyperbolic_tangent, std::tanh(a), 16)
FUNCMESH_UNARY_OPERATION(floor, std::floor(a), 0)
FUNCMESH_UNARY_OPERATION(ceil, std::ceil(a), 0)
#undef FUNCMESH_UNARY_OPERATION

struct select {
  static constexpr index_t work = 0;
  FUNCMESH_EXEC_CHECK_DISABLE
  template <class C, class A, class B>
  FUNCMESH_DEVICE constexpr auto operator()(const C& condition, const A& a, const B& b) const {
    return condition ? a : b;
  }
};

// Converts to T (a grid function's element type) at every index.
template <class T>
struct convert_to {
  static constexpr index_t work = 0;
  template <class A>
  FUNCMESH_DEVICE constexpr T operator()(const A& a) const {
    return static_cast<T>(a);
  }
};
}  // namespace ops

// An arithmetic operand pair: at least one expression, the other an expression or a
// scalar; never an applicative of functions on the left (that is apply).
template <class A, class B>
concept ArithmeticOperands = (Expression<A> || Expression<B>)&&(Expression<A> ||
                                                                Scalar<A>)&&(Expression<B> ||
                                                                             Scalar<B>);

FUNCMESH_EXEC_CHECK_DISABLE
template <class A, class B>
requires ArithmeticOperands<A, B> FUNCMESH_DEVICE constexpr auto operator+(const A& a, const B& b) {
  return make_zip(ops::plus{}, a, b);
}
FUNCMESH_EXEC_CHECK_DISABLE
template <class A, class B>
requires ArithmeticOperands<A, B> FUNCMESH_DEVICE constexpr auto operator-(const A& a, const B& b) {
  return make_zip(ops::minus{}, a, b);
}
FUNCMESH_EXEC_CHECK_DISABLE
template <class A, class B>
requires(ArithmeticOperands<A, B> && !ApplicativeOfFunctions<A>) FUNCMESH_DEVICE constexpr auto
operator*(const A& a, const B& b) {
  return make_zip(ops::multiplies{}, a, b);
}
FUNCMESH_EXEC_CHECK_DISABLE
template <class A, class B>
requires ArithmeticOperands<A, B> FUNCMESH_DEVICE constexpr auto operator/(const A& a, const B& b) {
  return make_zip(ops::divides{}, a, b);
}
FUNCMESH_EXEC_CHECK_DISABLE
template <Expression A>
FUNCMESH_DEVICE constexpr auto operator-(const A& a) {
  return make_zip(ops::negate{}, a);
}

// Comparisons give expressions of bool, for where() and masks.
FUNCMESH_EXEC_CHECK_DISABLE
template <class A, class B>
requires ArithmeticOperands<A, B> FUNCMESH_DEVICE constexpr auto operator<(const A& a, const B& b) {
  return make_zip(ops::less{}, a, b);
}
FUNCMESH_EXEC_CHECK_DISABLE
template <class A, class B>
requires ArithmeticOperands<A, B> FUNCMESH_DEVICE constexpr auto operator<=(const A& a,
                                                                            const B& b) {
  return make_zip(ops::less_equal{}, a, b);
}
FUNCMESH_EXEC_CHECK_DISABLE
template <class A, class B>
requires ArithmeticOperands<A, B> FUNCMESH_DEVICE constexpr auto operator>(const A& a, const B& b) {
  return make_zip(ops::greater{}, a, b);
}
FUNCMESH_EXEC_CHECK_DISABLE
template <class A, class B>
requires ArithmeticOperands<A, B> FUNCMESH_DEVICE constexpr auto operator>=(const A& a,
                                                                            const B& b) {
  return make_zip(ops::greater_equal{}, a, b);
}
FUNCMESH_EXEC_CHECK_DISABLE
template <class A, class B>
requires ArithmeticOperands<A, B> FUNCMESH_DEVICE constexpr auto operator&&(const A& a,
                                                                            const B& b) {
  return make_zip(ops::logical_and{}, a, b);
}
FUNCMESH_EXEC_CHECK_DISABLE
template <class A, class B>
requires ArithmeticOperands<A, B> FUNCMESH_DEVICE constexpr auto operator||(const A& a,
                                                                            const B& b) {
  return make_zip(ops::logical_or{}, a, b);
}
FUNCMESH_EXEC_CHECK_DISABLE
template <Expression A>
FUNCMESH_DEVICE constexpr auto operator!(const A& a) {
  return make_zip(ops::logical_not{}, a);
}

#define FUNCMESH_UNARY_FUNCTION(name, operation)    \
  template <Expression A>                           \
  FUNCMESH_DEVICE constexpr auto name(const A& a) { \
    return make_zip(ops::operation{}, a);           \
  }
FUNCMESH_UNARY_FUNCTION(sqrt, square_root)
FUNCMESH_UNARY_FUNCTION(abs, absolute)
FUNCMESH_UNARY_FUNCTION(exp, exponential)
FUNCMESH_UNARY_FUNCTION(log, logarithm)
FUNCMESH_UNARY_FUNCTION(sin, sine)
FUNCMESH_UNARY_FUNCTION(cos, cosine)
FUNCMESH_UNARY_FUNCTION(tan, tangent)
FUNCMESH_UNARY_FUNCTION(tanh, hyperbolic_tangent)
FUNCMESH_UNARY_FUNCTION(floor, floor)
FUNCMESH_UNARY_FUNCTION(ceil, ceil)
#undef FUNCMESH_UNARY_FUNCTION

FUNCMESH_EXEC_CHECK_DISABLE
template <class A, class B>
requires ArithmeticOperands<A, B> FUNCMESH_DEVICE constexpr auto min(const A& a, const B& b) {
  return make_zip(ops::minimum{}, a, b);
}
FUNCMESH_EXEC_CHECK_DISABLE
template <class A, class B>
requires ArithmeticOperands<A, B> FUNCMESH_DEVICE constexpr auto max(const A& a, const B& b) {
  return make_zip(ops::maximum{}, a, b);
}
FUNCMESH_EXEC_CHECK_DISABLE
template <class A, class B>
requires ArithmeticOperands<A, B> FUNCMESH_DEVICE constexpr auto pow(const A& a, const B& b) {
  return make_zip(ops::power{}, a, b);
}

// where(cond, a, b): a where cond holds, else b (both are evaluated: no divergent loads).
FUNCMESH_EXEC_CHECK_DISABLE
template <Expression C, class A, class B>
requires((Expression<A> || Scalar<A>)&&(Expression<B> || Scalar<B>)) FUNCMESH_DEVICE
    constexpr auto where(const C& condition, const A& a, const B& b) {
  return make_zip(ops::select{}, condition, a, b);
}

}  // namespace funcmesh
