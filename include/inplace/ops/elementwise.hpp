#pragma once
// The standard elementwise ops. Each op is one class, and everything else is
// derived from it: the graph function ip::NAME, the tensor function ip::NAME,
// ip::NAME_inplace and ops::NAME_inplace come from INPLACE_ELEMENTWISE_OPS
// below, the SIMD evaluator reads `simd`, the in-place registry `has_inplace`.
// An elementwise op class (a user's op has the same members, and the same power):
//
//   name                 used in diagnostics, explain() and the docs' table
//   elementwise = true   operator() is the scalar kernel
//   simd = true          the kernel also takes xsimd batches: math functions are
//                        called unqualified (after `using std::exp`), so that a
//                        batch finds xsimd's by argument-dependent lookup
//   has_inplace = true   registered: ip::inplace_variant<Op, I> is inplace_op<Op, I>
//                        for any input I (its result has its operands' dtype)
//   output_dtype<0, T...>  the result's dtype where it is not the rule's
//                        (detail/dtype_rule.hpp: cast<T>)
//   by_value = true      integer operands reach the kernel in their own dtypes,
//                        not converted to the common one (the comparisons)
//   int8_for_bool = true bool operands compute in int8, as NumPy's ops without
//                        a bool loop (pow, square)

#include "inplace/detail/config.hpp"
#include "inplace/ops/detail/convert.hpp"
#include "inplace/ops/detail/gelu.hpp"
#include "inplace/ops/detail/integer.hpp"
#include "inplace/ops/detail/math_batch.hpp"

#include <cmath>
#include <cstddef>
#include <functional>
#include <string_view>
#include <type_traits>
#include <utility>

// Kernels may be contracted (a * b + c as one fused multiply-add) once inlined
// into one loop, as g++ does by default (GNU modes): clang only contracts within
// one expression, so its ops say so explicitly.
INPLACE_FP_CONTRACT_BEGIN

namespace inplace::detail {
// Integer arithmetic wraps modulo 2^n, as NumPy's. C++'s operators compute in
// the promoted type R (int at least), where a signed overflow is undefined: the
// wrapping ops compute in R's unsigned twin and convert back (modular since
// C++20). Only scalars: xsimd's integer batches already wrap, and floats keep
// their plain operators (and their vectorised loops).
template <class... T>
inline constexpr bool all_integral = (std::is_integral_v<T> && ...);
template <class R>
using unsigned_twin = std::make_unsigned_t<R>;
// f(a, b) in the promoted type R, through R's unsigned twin when R is signed.
template <class F, class A, class B>
constexpr auto wrapping(F f, A a, B b) {
  using R = decltype(f(a, b));
  if constexpr (std::is_signed_v<R>) return R(f(unsigned_twin<R>(R(a)), unsigned_twin<R>(R(b))));
  else return f(a, b);
}
template <class A>
constexpr auto wrapping_neg(A a) {  // neg(INT_MIN) is INT_MIN, as NumPy's
  using R = decltype(-a);
  if constexpr (std::is_signed_v<R>) return R(unsigned_twin<R>(0) - unsigned_twin<R>(R(a)));
  else return -a;
}
}  // namespace inplace::detail

namespace inplace::ops {

// FLAGS: `simd`, `has_inplace` or both, as member declarations.
#define INPLACE_SIMD static constexpr bool simd = true;
#define INPLACE_HAS_INPLACE static constexpr bool has_inplace = true;
#define INPLACE_INT8_FOR_BOOL static constexpr bool int8_for_bool = true;
#define INPLACE_BINARY_OP(NAME, FLAGS, ...)                            \
  struct NAME {                                                        \
    static constexpr std::string_view name = #NAME;                    \
    static constexpr bool elementwise = true;                          \
    FLAGS                                                              \
    template <class A, class B>                                        \
    constexpr auto operator()(A a, B b) const { __VA_ARGS__ }          \
  };
#define INPLACE_UNARY_OP(NAME, FLAGS, ...)                             \
  struct NAME {                                                        \
    static constexpr std::string_view name = #NAME;                    \
    static constexpr bool elementwise = true;                          \
    FLAGS                                                              \
    template <class A>                                                 \
    constexpr auto operator()(A a) const { __VA_ARGS__ }               \
  };

// add, sub, mul, neg, square, sum, abs of integers wrap (detail::wrapping, wrapping_neg).
INPLACE_BINARY_OP(add, INPLACE_SIMD INPLACE_HAS_INPLACE,
                  if constexpr (detail::all_integral<A, B>) return detail::wrapping(std::plus<>{}, a, b); else return a + b;)
INPLACE_BINARY_OP(sub, INPLACE_SIMD INPLACE_HAS_INPLACE,
                  if constexpr (detail::all_integral<A, B>) return detail::wrapping(std::minus<>{}, a, b); else return a - b;)
// mul: a * b; integers wrap (two uint16 promote to int, where 65535 * 65535
// would overflow: computed in unsigned).
INPLACE_BINARY_OP(mul, INPLACE_SIMD INPLACE_HAS_INPLACE,
                  if constexpr (detail::all_integral<A, B>) return detail::wrapping(std::multiplies<>{}, a, b);
                  else return a * b;)
// div: integers truncate toward zero; a zero divisor gives 0 and INT_MIN / -1
// gives INT_MIN, NumPy's results (without its warning), where C++'s are undefined.
INPLACE_BINARY_OP(div, INPLACE_SIMD INPLACE_HAS_INPLACE,
                  if constexpr (detail::all_integral<A, B>) {
                    using R = decltype(a / b);
                    const R x = R(a), y = R(b);
                    if (y == R(0)) return R(0);
                    if constexpr (std::is_signed_v<R>) if (y == R(-1)) return detail::wrapping_neg(x);
                    return R(x / y);
                  } else return a / b;)

// min/max: NumPy's minimum/maximum on the common type of both operands: a NaN
// in either operand gives NaN (std::fmin and std::fmax would drop it).
INPLACE_BINARY_OP(min, , using C = std::common_type_t<A, B>; const C x = C(a), y = C(b);
                  return x < y || x != x ? x : y;)  // x != x: x is NaN
INPLACE_BINARY_OP(max, , using C = std::common_type_t<A, B>; const C x = C(a), y = C(b);
                  return y < x || x != x ? x : y;)

// pow: NumPy's power. Integers stay integers (repeated squaring by mul, so
// uint16 wraps as NumPy's rather than overflowing C++'s int; a negative
// exponent gives the truncated 1 / a^-b: 0 unless a is 1 or -1). No SIMD form:
// xsimd 8's pow gives 0 for pow(0, 0) and pow(0, -1) (NumPy: 1 and inf).
// bool operands compute in int8, as NumPy's (np.power(True, True) is int8 1).
INPLACE_BINARY_OP(pow, INPLACE_HAS_INPLACE INPLACE_INT8_FOR_BOOL,
                  if constexpr (std::is_integral_v<A> && std::is_integral_v<B>) {
                    using C = std::common_type_t<A, B>;
                    C base = C(a), r = C(1);  // (mul wraps as NumPy's)
                    if (b < B(0)) return base == C(1) ? C(1) : base == C(-1) ? (b % 2 != 0 ? C(-1) : C(1)) : C(0);
                    for (B e = b; e > B(0); e /= 2) {
                      if (e % 2 != 0) r = C(mul{}(r, base));
                      if (e > B(1)) base = C(mul{}(base, base));  // not past the last bit
                    }
                    return r;
                  } else {
                    using std::pow;
                    return pow(a, b);
                  })

// Comparisons and logical ops: NumPy 2's, giving bool. They read values
// (by_value, detail/dtype_rule.hpp): integer operands reach the kernel in
// their own dtypes and compare as numbers (std::cmp_less & co.), so a weak
// integer out of the other operand's range compares as its value (uint8 > -1_c
// is true, int8 == 1000_c false) and int64 beside uint64 is exact; other
// operands compare on their common dtype (uint8 > 0.5_c in double).
#define INPLACE_BY_VALUE static constexpr bool by_value = true;
#define INPLACE_COMPARISON(NAME, OP, CMP)                                                     \
  INPLACE_BINARY_OP(NAME, INPLACE_BY_VALUE,                                                   \
                    if constexpr (detail::integer_pair<A, B>) return CMP(detail::widen(a), detail::widen(b)); \
                    else return a OP b;)
INPLACE_COMPARISON(less, <, std::cmp_less)
INPLACE_COMPARISON(less_equal, <=, std::cmp_less_equal)
INPLACE_COMPARISON(greater, >, std::cmp_greater)
INPLACE_COMPARISON(greater_equal, >=, std::cmp_greater_equal)
INPLACE_COMPARISON(equal, ==, std::cmp_equal)
INPLACE_COMPARISON(not_equal, !=, std::cmp_not_equal)
#undef INPLACE_COMPARISON
INPLACE_BINARY_OP(logical_and, INPLACE_BY_VALUE, return static_cast<bool>(a) && static_cast<bool>(b);)
INPLACE_BINARY_OP(logical_or, INPLACE_BY_VALUE, return static_cast<bool>(a) || static_cast<bool>(b);)
#undef INPLACE_BY_VALUE
INPLACE_UNARY_OP(logical_not, , return !static_cast<bool>(a);)

INPLACE_UNARY_OP(neg, INPLACE_SIMD INPLACE_HAS_INPLACE,
                 if constexpr (std::is_integral_v<A>) return detail::wrapping_neg(a); else return -a;)
// exp and log: a batch through detail::exp_batch, log_batch (xsimd 8's exp
// overflows early for float and flushes subnormal results to 0; its double log
// of a subnormal is wrong).
INPLACE_UNARY_OP(exp, INPLACE_SIMD INPLACE_HAS_INPLACE,
                 if constexpr (detail::simd_batch<A>) return detail::exp_batch(a);
                 else { using std::exp; return exp(a); })
INPLACE_UNARY_OP(log, INPLACE_SIMD INPLACE_HAS_INPLACE,
                 if constexpr (detail::simd_batch<A>) return detail::log_batch(a);
                 else { using std::log; return log(a); })
INPLACE_UNARY_OP(sqrt, INPLACE_SIMD INPLACE_HAS_INPLACE, using std::sqrt; return sqrt(a);)
// abs of an unsigned integer (or bool) is itself (std::abs has no unsigned
// overload: uint32 and uint64 would not compile); abs(INT_MIN) is INT_MIN, as NumPy's.
INPLACE_UNARY_OP(abs, INPLACE_SIMD INPLACE_HAS_INPLACE, using std::abs;
                 if constexpr (std::is_unsigned_v<A>) return a;
                 else if constexpr (std::is_integral_v<A>) return a < A(0) ? detail::wrapping_neg(a) : +a;
                 else return abs(a);)
INPLACE_UNARY_OP(tanh, INPLACE_SIMD INPLACE_HAS_INPLACE, using std::tanh; return tanh(a);)
// sigmoid: 1 / (1 + exp(-a)); integers in double, as exp (-a of an unsigned
// integer would wrap).
INPLACE_UNARY_OP(sigmoid, INPLACE_SIMD INPLACE_HAS_INPLACE,
                 if constexpr (detail::simd_batch<A>) return A(1) / (A(1) + detail::exp_batch(-a));
                 else {
                   using std::exp;
                   using F = std::conditional_t<std::is_integral_v<A>, double, A>;
                   const F x(a);
                   return F(1) / (F(1) + exp(-x));
                 })
INPLACE_UNARY_OP(relu, INPLACE_HAS_INPLACE, return a > A(0) ? a : A(0);)
// gelu: the exact form x/2 * (1 + erf(x / sqrt 2)), as torch.nn.GELU() by default,
// computed as x/2 * erfc(-x / sqrt 2) (detail/gelu.hpp: accurate for x < 0 too);
// integers compute in double, as exp and sqrt do. Constant folding's values
// (neither numbers nor batches) take the same erfc form in long double.
INPLACE_UNARY_OP(gelu, INPLACE_SIMD INPLACE_HAS_INPLACE,
                 if constexpr (std::is_arithmetic_v<A>)
                   return detail::gelu_scalar(std::conditional_t<std::is_integral_v<A>, double, A>(a));
                 else if constexpr (detail::simd_batch<A>) return detail::gelu_batch(a);
                 else { using std::erfc; return A(0.5) * a * erfc(a * A(-0.70710678118654752440)); })
// square: mul's a * a (small unsigned integers wrap as NumPy's); bool in int8,
// as NumPy's (np.square(True) is int8 1).
INPLACE_UNARY_OP(square, INPLACE_SIMD INPLACE_HAS_INPLACE INPLACE_INT8_FOR_BOOL, return mul{}(a, a);)
// expm1, floor, ceil: no SIMD form: xsimd 8's double forms without SSE4.1
// convert NaN to int64 (undefined; UBSan stops) and drop the sign of a zero
// result (NumPy's ceil(-0.5) is -0.0).
INPLACE_UNARY_OP(log1p, INPLACE_SIMD INPLACE_HAS_INPLACE, using std::log1p; return log1p(a);)
INPLACE_UNARY_OP(expm1, INPLACE_HAS_INPLACE, using std::expm1; return expm1(a);)
INPLACE_UNARY_OP(sin, INPLACE_SIMD INPLACE_HAS_INPLACE, using std::sin; return sin(a);)
INPLACE_UNARY_OP(cos, INPLACE_SIMD INPLACE_HAS_INPLACE, using std::cos; return cos(a);)
INPLACE_UNARY_OP(floor, INPLACE_HAS_INPLACE, using std::floor; return floor(a);)
INPLACE_UNARY_OP(ceil, INPLACE_HAS_INPLACE, using std::ceil; return ceil(a);)
// round: NumPy's, half to even (nearbyint in the default rounding mode: 2.5 -> 2);
// integers stay as they are; copysign keeps a zero result's sign on batches too.
INPLACE_UNARY_OP(round, INPLACE_SIMD INPLACE_HAS_INPLACE,
                 if constexpr (std::is_integral_v<A>) return a;
                 else { using std::nearbyint; using std::copysign; return copysign(nearbyint(a), a); })
// sign: NumPy's: -1, 0 or 1 in the operand's dtype; sign(-0.0) is 0.0, sign(NaN) NaN.
INPLACE_UNARY_OP(sign, INPLACE_HAS_INPLACE,
                 if constexpr (std::is_unsigned_v<A>) return a > A(0) ? A(1) : A(0);
                 else return a > A(0) ? A(1) : a < A(0) ? A(-1) : a == A(0) ? A(0) : a;)
INPLACE_UNARY_OP(isnan, , if constexpr (std::is_floating_point_v<A>) return a != a; else return false;)
INPLACE_UNARY_OP(isfinite, , if constexpr (std::is_floating_point_v<A>) return a - a == A(0); else return true;)

#undef INPLACE_BINARY_OP
#undef INPLACE_UNARY_OP

// clip(a, lo, hi): NumPy's, minimum(maximum(a, lo), hi): NaN in any operand gives NaN.
struct clip {
  static constexpr std::string_view name = "clip";
  static constexpr bool elementwise = true;
  INPLACE_HAS_INPLACE
  template <class A, class L, class H>
  constexpr auto operator()(A a, L lo, H hi) const { return min{}(max{}(a, lo), hi); }
};

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
  INPLACE_SIMD
  INPLACE_HAS_INPLACE
  template <class A, class... B>
  constexpr auto operator()(A a, B... b) const {
    if constexpr (sizeof...(B) == 0) return a;
    else if constexpr (detail::all_integral<A, B...>) return fold_add(a, b...);  // wraps
    else return (a + ... + b);
  }

 private:
  template <class A, class B, class... C>
  static constexpr auto fold_add(A a, B b, C... c) {
    if constexpr (sizeof...(C) == 0) return add{}(a, b);
    else return fold_add(add{}(a, b), c...);
  }
};

#undef INPLACE_SIMD
#undef INPLACE_HAS_INPLACE
#undef INPLACE_INT8_FOR_BOOL

// cast<T>(a): NumPy's astype(T), defined for every value (detail/convert.hpp):
// a float to an integer truncates toward zero, NaN gives 0 and a value beyond
// T's range T's minimum or maximum, as JAX's; integers wrap; to bool, a != 0.
template <class T>
struct cast {
  static_assert(std::is_arithmetic_v<T> && !std::is_const_v<T> && !std::is_volatile_v<T>,
                "inplace: dtype: ip::cast<T>: T must be an arithmetic type (bool, an integer or a floating-point "
                "type); fix: cast to a number type, e.g. ip::cast<float>(x).");
  static constexpr std::string_view name = "cast";
  static constexpr bool elementwise = true;
  template <std::size_t I, class... U>
  using output_dtype = T;
  template <class A>
  constexpr T operator()(A a) const { return detail::convert<T>(a); }
};

}  // namespace inplace::ops

// Every standard elementwise op with a function of its own name, in the order of
// docs/reference.md's table (tests/docs/op_table.cpp holds the two together):
// ip::NAME on graph symbols (graph/graph_ops.hpp) and on tensors
// (tensor/expression.hpp), ip::NAME_inplace on both and ops::NAME_inplace
// (ops/inplace_op.hpp) for the ops with has_inplace.
#define INPLACE_ELEMENTWISE_OPS(X)                                                                              \
  X(add) X(sub) X(mul) X(div) X(neg) X(exp) X(log) X(sqrt) X(abs) X(tanh) X(sigmoid) X(relu) X(gelu) X(min) X(max) \
  X(where) X(sum) X(pow) X(square) X(clip) X(log1p) X(expm1) X(sin) X(cos) X(floor) X(ceil) X(round) X(sign)     \
  X(isnan) X(isfinite) X(less) X(less_equal) X(greater) X(greater_equal) X(equal) X(not_equal) X(logical_and)    \
  X(logical_or) X(logical_not)

// The operators of graph symbols and tensor expressions: binary arithmetic
// (with their compound assignments on tensors) and comparisons.
#define INPLACE_ARITHMETIC_OPERATORS(X) X(+, add) X(-, sub) X(*, mul) X(/, div)
#define INPLACE_COMPARISON_OPERATORS(X) \
  X(<, less) X(<=, less_equal) X(>, greater) X(>=, greater_equal) X(==, equal) X(!=, not_equal)

namespace inplace::ops {
// The names of INPLACE_ELEMENTWISE_OPS, and whether each has an in-place form.
struct op_entry {
  std::string_view name;
  bool has_inplace;
};
template <class Op>
constexpr bool has_inplace_flag() {
  if constexpr (requires { Op::has_inplace; }) return static_cast<bool>(Op::has_inplace);
  else return false;
}
#define INPLACE_OP_ENTRY(NAME) op_entry{NAME::name, has_inplace_flag<NAME>()},
inline constexpr op_entry elementwise_ops[] = {INPLACE_ELEMENTWISE_OPS(INPLACE_OP_ENTRY)};
#undef INPLACE_OP_ENTRY
}  // namespace inplace::ops

INPLACE_FP_CONTRACT_END
