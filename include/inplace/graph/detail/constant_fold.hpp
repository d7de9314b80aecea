#pragma once
// Constant folding: an elementwise op whose operands are all compile-time
// constants (2_c, 1.5_c, folded ones) is computed where the graph is built,
// by the op's own scalar kernel, with the dtype rule of a run-time call
// (ops/detail/dtype_rule.hpp): operands converted to their common dtype, the
// result to the op's. Any elementwise op folds, a user's too, when its kernel
// is a constant expression for those values; one that is not (an integer
// division by zero, a multi-output op, a user's kernel calling std::exp)
// stays a node.
//
// A floating operand is passed to the library's kernels as a const_float: the kernels
// call their math functions unqualified (after `using std::exp`, so that
// xsimd's batches find theirs), and a const_float finds the constexpr ones
// below by the same argument-dependent lookup. They compute in long double
// and round once: floor, ceil, round, sign, abs, copysign and comparisons are
// exact; sqrt, exp, log, sin, ... are within an ulp of the run-time kernel's.

#include "inplace/graph/detail/entry_desc.hpp"
#include "inplace/ops/detail/dtype_rule.hpp"
#include "inplace/ops/detail/integer.hpp"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

namespace inplace::detail {

namespace cmath {  // constexpr math in long double; finite arguments unless said
using ld = long double;
constexpr ld inf = std::numeric_limits<ld>::infinity();
constexpr ld nan = std::numeric_limits<ld>::quiet_NaN();
constexpr bool isnan(ld x) { return x != x; }
constexpr bool signbit(ld x) { return std::bit_cast<std::uint64_t>(static_cast<double>(x)) >> 63; }
constexpr ld fabs(ld x) { return signbit(x) ? -x : x; }
constexpr ld copysign(ld x, ld s) { return signbit(x) == signbit(s) ? x : -x; }
constexpr bool integral_range(ld x) { return fabs(x) < 0x1p62L; }  // else x is already an integer (or not finite)
constexpr ld floor(ld x) {
  if (!integral_range(x) || x == 0) return x;
  const ld t = static_cast<ld>(static_cast<long long>(x));
  return t > x ? t - 1 : (t == 0 && x < 0 ? -0.0L : t);
}
constexpr ld ceil(ld x) { return -floor(-x); }
constexpr ld nearbyint(ld x) {  // half to even
  if (!integral_range(x)) return x;
  const ld f = floor(x), d = x - f;
  const ld r = d > 0.5L ? f + 1 : d < 0.5L ? f : (static_cast<long long>(f) % 2 == 0 ? f : f + 1);
  return r == 0 ? copysign(0.0L, x) : r;
}
constexpr ld sqrt(ld x) {
  if (isnan(x) || x < 0) return nan;
  if (x == 0 || x == inf) return x;
  ld s = 1, y = x;  // x = y * 4^k, y in [1, 4): sqrt(x) = sqrt(y) * 2^k
  while (y >= 4) y /= 4, s *= 2;
  while (y < 1) y *= 4, s /= 2;
  ld r = 1.5L;
  for (int i = 0; i < 8; ++i) r = (r + y / r) / 2;
  return r * s;
}
constexpr ld ln2 = 0.693147180559945309417232121458176568L;
constexpr ld pi = 3.14159265358979323846264338327950288L;
constexpr ld exp(ld x) {
  if (isnan(x)) return x;
  if (x > 11357) return inf;
  if (x < -11400) return 0;
  const ld k = nearbyint(x / ln2);
  const ld r = x - k * ln2;  // |r| <= ln2 / 2
  ld term = 1, sum = 1;
  for (int n = 1; n < 30; ++n) sum += term *= r / n;
  for (ld i = 0; i < k; ++i) sum *= 2;
  for (ld i = 0; i > k; --i) sum /= 2;
  return sum;
}
// 2 atanh(z) = log((1 + z) / (1 - z)), |z| <= 0.18 here
constexpr ld atanh2(ld z) {
  ld z2 = z * z, term = z, sum = 0;
  for (int n = 1; n < 60; n += 2) sum += term / n, term *= z2;
  return 2 * sum;
}
constexpr ld log(ld x) {
  if (isnan(x) || x < 0) return nan;
  if (x == 0) return -inf;
  if (x == inf) return x;
  ld k = 0;  // x = m * 2^k, m in [sqrt(1/2), sqrt(2))
  while (x >= 1.41421356237309504880L) x /= 2, ++k;
  while (x < 0.70710678118654752440L) x *= 2, --k;
  return k * ln2 + atanh2((x - 1) / (x + 1));
}
constexpr ld log1p(ld x) {
  if (isnan(x) || x < -1) return nan;
  if (fabs(x) > 0.25L) return log(1 + x);
  return x == 0 ? x : atanh2(x / (2 + x));  // 1 + x is not rounded on the way
}
constexpr ld expm1(ld x) {
  if (isnan(x) || fabs(x) > 0.5L) return exp(x) - 1;
  if (x == 0) return x;
  ld term = x, sum = x;
  for (int n = 2; n < 30; ++n) sum += term *= x / n;
  return sum;
}
// Not at compile time: an argument whose folding would lose accuracy (the
// op then stays a node).
inline ld run_time_only(ld x) { return x; }
constexpr ld sin_cos(ld x, bool cosine) {
  if (isnan(x) || fabs(x) == inf) return nan;
  if (fabs(x) > 0x1p20L) return run_time_only(x);
  const ld q = nearbyint(x / (pi / 2));
  // x - q pi/2 with pi/2 in three 33-bit parts and a tail (fdlibm's): each q * part exact
  const ld r = x - q * 1.57079632673412561417e+00L - q * 6.07710050630396597660e-11L -
               q * 2.02226624871116645580e-21L - q * 8.47842766036889956997e-32L;
  const long long quadrant = ((static_cast<long long>(q) + (cosine ? 1 : 0)) % 4 + 4) % 4;
  const bool use_cos = quadrant % 2 == 1;
  ld term = use_cos ? 1 : r, sum = term;
  for (int n = use_cos ? 2 : 3; n < 40; n += 2) sum += term *= -r * r / ((n - 1) * n);
  if (!cosine && x == 0) return x;  // sin(-0.0) is -0.0
  return quadrant >= 2 ? -sum : sum;
}
constexpr ld sin(ld x) { return sin_cos(x, false); }
constexpr ld cos(ld x) { return sin_cos(x, true); }
constexpr ld tanh(ld x) {
  if (isnan(x) || x == 0) return x;
  if (fabs(x) > 40) return copysign(1, x);
  const ld e = expm1(2 * x);
  return e / (e + 2);
}
constexpr ld erf(ld x) {
  if (isnan(x) || x == 0) return x;
  const ld a = fabs(x);
  if (a > 6.5L) return copysign(1, x);
  if (a < 2.5L) {  // Maclaurin series
    ld term = a, sum = a;
    for (int n = 1; n < 120; ++n) sum += (term *= -a * a / n) / (2 * n + 1);
    return copysign(sum * 2 / sqrt(pi), x);
  }
  ld f = 0;  // erfc(a) = exp(-a^2) / sqrt(pi) / (a + 1/2 / (a + 1 / (a + 3/2 / (a + ...))))
  for (int n = 120; n > 0; --n) f = (n / 2.0L) / (a + f);
  return copysign(1 - exp(-a * a) / sqrt(pi) / (a + f), x);
}
// erfc without erf's cancellation for large x (gelu of a negative value is
// x/2 erfc(-x/sqrt 2)): the continued fraction from 2.5 on, 1 - erf below.
constexpr ld erfc(ld x) {
  if (isnan(x)) return x;
  if (x < 2.5L) return 1 - erf(x);
  if (x == inf) return 0;
  ld f = 0;
  for (int n = 120; n > 0; --n) f = (n / 2.0L) / (x + f);
  return exp(-x * x) / sqrt(pi) / (x + f);
}
// std::pow's special values (C's Annex F, NumPy's): a negative base needs an
// integer exponent, whose parity gives the sign (of an infinite or zero base
// too); |a| < 1 or > 1 to an infinite power is 0 or inf, -1 to one is 1.
constexpr ld pow(ld a, ld b) {
  if (b == 0 || a == 1) return 1;
  if (isnan(a) || isnan(b)) return nan;
  if (fabs(b) == inf) return a == -1 ? 1 : (fabs(a) > 1) == (b > 0) ? inf : 0;
  const bool integer = floor(b) == b;  // (every |b| >= 2^62 is)
  const bool odd = integer && fabs(b) < 0x1p63L && static_cast<long long>(fabs(b)) % 2 != 0;
  const ld sign = signbit(a) && odd ? -1 : 1, m = fabs(a);
  if (m == 0 || m == inf) return sign * ((m == 0) == (b < 0) ? inf : 0);
  if (a < 0 && !integer) return nan;
  if (integer && fabs(b) < 0x1p31L) {  // repeated squaring: exact while it fits
    ld r = 1, base = m;
    for (long long e = static_cast<long long>(fabs(b)); e > 0; e /= 2, base *= base)
      if (e % 2 != 0) r *= base;
    return sign * (b > 0 ? r : 1 / r);
  }
  return sign * exp(b * log(m));
}
}  // namespace cmath

// A floating value of dtype T inside a kernel run at compile time.
template <class T>
struct const_float {
  T v{};
  constexpr const_float() = default;
  template <class U>
    requires std::is_arithmetic_v<U>
  constexpr const_float(U u) : v(static_cast<T>(u)) {}
  template <class U>
    requires std::is_arithmetic_v<U>
  constexpr explicit operator U() const { return static_cast<U>(v); }

  friend constexpr const_float operator-(const_float a) { return -a.v; }
  friend constexpr const_float operator+(const_float a, const_float b) { return a.v + b.v; }
  friend constexpr const_float operator-(const_float a, const_float b) { return a.v - b.v; }
  friend constexpr const_float operator*(const_float a, const_float b) { return a.v * b.v; }
  friend constexpr const_float operator/(const_float a, const_float b) { return a.v / b.v; }
  friend constexpr bool operator<(const_float a, const_float b) { return a.v < b.v; }
  friend constexpr bool operator<=(const_float a, const_float b) { return a.v <= b.v; }
  friend constexpr bool operator>(const_float a, const_float b) { return a.v > b.v; }
  friend constexpr bool operator>=(const_float a, const_float b) { return a.v >= b.v; }
  friend constexpr bool operator==(const_float a, const_float b) { return a.v == b.v; }
  friend constexpr bool operator!=(const_float a, const_float b) { return a.v != b.v; }

  static constexpr const_float of(cmath::ld x) { return static_cast<T>(x); }
#define INPLACE_CONST_MATH(F) \
  friend constexpr const_float F(const_float a) { return of(cmath::F(a.v)); }
  INPLACE_CONST_MATH(floor) INPLACE_CONST_MATH(ceil) INPLACE_CONST_MATH(nearbyint) INPLACE_CONST_MATH(sqrt)
  INPLACE_CONST_MATH(exp) INPLACE_CONST_MATH(log) INPLACE_CONST_MATH(log1p) INPLACE_CONST_MATH(expm1)
  INPLACE_CONST_MATH(sin) INPLACE_CONST_MATH(cos) INPLACE_CONST_MATH(tanh) INPLACE_CONST_MATH(erf)
  INPLACE_CONST_MATH(erfc)
#undef INPLACE_CONST_MATH
  friend constexpr const_float abs(const_float a) { return of(cmath::fabs(a.v)); }
  friend constexpr const_float copysign(const_float a, const_float b) { return of(cmath::copysign(a.v, b.v)); }
  friend constexpr const_float pow(const_float a, const_float b) { return of(cmath::pow(a.v, b.v)); }
};

// What a constant of dtype T is given to the kernel as: a floating one as a
// const_float; an integer one as itself, or (Wide) as a long double const_float:
// for an op that computes a floating result from integers (sqrt(2_c)), or whose
// integer kernel is no constant expression (std::abs of an integer is not).
// (Only the library's ops, whose kernels are written for it: a user's kernel
// might call std::exp qualified, which a const_float would make a hard error;
// a user's op gets its operands as plain numbers, and folds where its kernel
// is a constant expression on them.)
// (true for INPLACE_ELEMENTWISE_OPS and cast<T>: graph_ops.hpp, where they are known)
template <class Op>
inline constexpr bool library_op = false;

template <class T, bool Wide>
using fold_operand_t = std::conditional_t<std::is_floating_point_v<T>, const_float<T>,
                                          std::conditional_t<Wide, const_float<long double>, T>>;
template <class Op, class T, bool Wide>
using fold_operand_of = std::conditional_t<library_op<Op>, fold_operand_t<T, Wide>, T>;

// A weak integer constant C at its value, for an op that reads values (a
// comparison, a logical op) beside integer operands: widened as the kernel
// widens its integers, from int64, or from uint64 above it (weak integers lie
// in -2^63 .. 2^64 - 1: a call stores every constant in its own dtype, int64's
// or uint64's bits).
template <class C>
constexpr auto constant_value_of() {
  if constexpr (C::value < 0x1p63L) return widen(static_cast<std::int64_t>(C::value));
  else return widen(static_cast<std::uint64_t>(C::value));
}

// Whether value v is one of dtype T's, and constant C's.
template <class T>
constexpr bool in_range(long double v) {
  return v >= static_cast<long double>(std::numeric_limits<T>::lowest()) &&
         v <= static_cast<long double>(std::numeric_limits<T>::max());
}
template <class T, class C>
inline constexpr bool value_fits = in_range<T>(C::value);

// Whether weak integer constant C beside integer operands of dtype T reaches
// Op's kernel as its value (an op that reads values: a comparison, a logical op).
template <class Op, class T, class C>
inline constexpr bool reads_weak_value = by_value<Op>() && std::is_same_v<typename C::dtype, weak_int> && integer_dtype<T>;

// Constant A as operand of type T of Op's kernel: a weak integer beside
// integers, in an op that reads values, at its value, as a run-time call gives
// it (run/detail/executor.hpp).
template <class Op, bool Wide, class T, class A>
constexpr auto fold_argument() {
  if constexpr (reads_weak_value<Op, T, A>)
    return constant_value_of<A>();
  else return fold_operand_of<Op, T, Wide>(static_cast<T>(A::value));
}

// The value of Op on constants A... (leaves with dtype and value), in the dtype
// the rule gives a run-time call.
template <class Op, bool Wide, class... A>
constexpr auto fold_kernel() {
  using rule = elementwise_rule<Op, typename A::dtype...>;
  using R = typename rule::result;
  return [&]<std::size_t... J>(std::index_sequence<J...>) {
    using boost::mp11::mp_at_c, boost::mp11::mp_list;
    return static_cast<R>(Op{}(fold_argument<Op, Wide, typename rule::template operand_t<J>, mp_at_c<mp_list<A...>, J>>()...));
  }(std::index_sequence_for<A...>{});
}
template <class Op, bool Wide, class... A>
concept fold_constant = requires { typename std::integral_constant<bool, (fold_kernel<Op, Wide, A...>(), true)>; };

template <class Op, class... A>
constexpr bool fold_wide() {
  using rule = elementwise_rule<Op, typename A::dtype...>;
  if constexpr (!library_op<Op>) return false;
  else if constexpr (std::is_floating_point_v<typename rule::kernel_result> && !std::is_floating_point_v<typename rule::common>)
    return true;
  else return !fold_constant<Op, false, A...>;
}
template <class Op, class... A>
constexpr auto fold_value() { return fold_kernel<Op, fold_wide<Op, A...>(), A...>(); }

// A compile-time constant: a literal, a folded expression, a typed constant (ip::full's).
template <class T>
concept constant_operand = requires {
  requires T::kind == entry_kind::constant;
  requires T::value_shape.rank == 0;
};

// Whether Op on constants A... folds: a pure one-result elementwise op whose
// kernel is a constant expression for these values.
template <class Op, class... A>
concept foldable = sizeof...(A) > 0 && (constant_operand<A> && ...) && requires { requires Op::elementwise; } &&
                   !requires { Op::destroy_map; } && !requires { Op::num_outputs; } &&
                   fold_constant<Op, fold_wide<Op, A...>(), A...>;

// The folded constant's dtype: weak (weak_int, weak_float) when its value
// operands are all weak and the op gives a number of theirs, as Python's
// 1 + 2 and 1 / 3.0 (NEP 50: weak stays weak); otherwise what the rule gives
// (a comparison: bool; cast<T>: T; an operand of a fixed dtype: its dtype).
template <class Op, class... D>
constexpr auto folded_dtype() {
  using rule = elementwise_rule<Op, D...>;
  using R = typename rule::result;
  constexpr bool weak_values = [] {
    std::size_t j = 0;
    return ((j++ < rule::from || is_weak<D>) && ...) && rule::from < sizeof...(D);
  }();
  constexpr bool weak = weak_values && !requires { typename Op::template output_dtype<0, D...>; } &&
                        !std::is_same_v<R, bool>;
  if constexpr (weak) return std::type_identity<std::conditional_t<std::is_integral_v<R>, weak_int, weak_float>>{};
  else return std::type_identity<R>{};
}

}  // namespace inplace::detail
