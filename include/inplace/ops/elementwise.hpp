#pragma once
// The standard elementwise ops as op classes: a name, `elementwise = true`
// and a scalar kernel. Kernels are generic and call math functions unqualified
// (after `using std::exp` ...), so an evaluator may pass SIMD batches as well.
// Pure ops have empty maps; their *_inplace variants are ops::inplace_op<Op, 0>.

#include "inplace/detail/config.hpp"

#include <cmath>
#include <cstddef>
#include <string_view>
#include <type_traits>

// Kernels may be contracted (a * b + c as one fused multiply-add) once inlined
// into one loop, as g++ does by default (GNU modes): clang only contracts within
// one expression, so its ops say so explicitly.
INPLACE_FP_CONTRACT_BEGIN

namespace inplace::ops {

#define INPLACE_BINARY_OP(NAME, EXPR)                                 \
  struct NAME {                                                       \
    static constexpr std::string_view name = #NAME;                   \
    static constexpr bool elementwise = true;                         \
    template <class A, class B>                                       \
    constexpr auto operator()(A a, B b) const { return EXPR; }        \
  };
INPLACE_BINARY_OP(add, a + b)
INPLACE_BINARY_OP(sub, a - b)
INPLACE_BINARY_OP(div, a / b)
#undef INPLACE_BINARY_OP

// mul: a * b. Two unsigned integers narrower than int multiply as unsigned:
// C++ would promote them to int, where 65535 * 65535 overflows.
struct mul {
  static constexpr std::string_view name = "mul";
  static constexpr bool elementwise = true;
  template <class A, class B>
  constexpr auto operator()(A a, B b) const {
    if constexpr (std::is_integral_v<A> && std::is_unsigned_v<A> && sizeof(A) < sizeof(unsigned) &&
                  std::is_same_v<A, B>)
      return static_cast<unsigned>(a) * static_cast<unsigned>(b);
    else return a * b;
  }
};

// min/max: NumPy's minimum/maximum on the common type of both operands: a NaN
// in either operand gives NaN (std::fmin and std::fmax would drop it).
struct min {
  static constexpr std::string_view name = "min";
  static constexpr bool elementwise = true;
  template <class A, class B>
  constexpr auto operator()(A a, B b) const {
    using C = std::common_type_t<A, B>;
    const C x = C(a), y = C(b);
    return x < y || x != x ? x : y;  // x != x: x is NaN
  }
};
struct max {
  static constexpr std::string_view name = "max";
  static constexpr bool elementwise = true;
  template <class A, class B>
  constexpr auto operator()(A a, B b) const {
    using C = std::common_type_t<A, B>;
    const C x = C(a), y = C(b);
    return y < x || x != x ? x : y;
  }
};

#define INPLACE_UNARY_OP(NAME, ...)                                   \
  struct NAME {                                                       \
    static constexpr std::string_view name = #NAME;                   \
    static constexpr bool elementwise = true;                         \
    template <class A>                                                \
    constexpr auto operator()(A a) const { __VA_ARGS__ }              \
  };
INPLACE_UNARY_OP(neg, return -a;)
INPLACE_UNARY_OP(exp, using std::exp; return exp(a);)
INPLACE_UNARY_OP(log, using std::log; return log(a);)
INPLACE_UNARY_OP(sqrt, using std::sqrt; return sqrt(a);)
INPLACE_UNARY_OP(abs, using std::abs; return abs(a);)
INPLACE_UNARY_OP(tanh, using std::tanh; return tanh(a);)
INPLACE_UNARY_OP(sigmoid, using std::exp; return A(1) / (A(1) + exp(-a));)
INPLACE_UNARY_OP(relu, return a > A(0) ? a : A(0);)
// gelu: the exact form x/2 * (1 + erf(x / sqrt 2)), as torch.nn.GELU() by default;
// integers compute in double, as exp and sqrt do.
INPLACE_UNARY_OP(gelu, using std::erf; using F = std::conditional_t<std::is_integral_v<A>, double, A>; const F x(a);
                 return F(0.5) * x * (F(1) + erf(x * F(0.70710678118654752440)));)
#undef INPLACE_UNARY_OP

// where(c, a, b): c ? a : b elementwise (c is converted to bool). Only a and b
// decide the result's dtype (value_args_from: the rule in detail/dtype_rule.hpp).
struct where {
  static constexpr std::string_view name = "where";
  static constexpr bool elementwise = true;
  static constexpr std::size_t value_args_from = 1;
  template <class C, class A, class B>
  constexpr auto operator()(C c, A a, B b) const {
    using R = std::common_type_t<A, B>;
    return static_cast<bool>(c) ? R(a) : R(b);
  }
};

// sum(a, b, ...): n-ary elementwise add.
struct sum {
  static constexpr std::string_view name = "sum";
  static constexpr bool elementwise = true;
  template <class A, class... B>
  constexpr auto operator()(A a, B... b) const { return (a + ... + b); }
};

}  // namespace inplace::ops

INPLACE_FP_CONTRACT_END
