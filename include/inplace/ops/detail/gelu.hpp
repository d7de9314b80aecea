#pragma once
// gelu's kernels: gelu(x) = x Phi(x) = x/2 (1 + erf(x / sqrt 2)), Phi the
// standard normal CDF, written as x/2 erfc(-x / sqrt 2): for x < 0 the
// small result comes from erfc's own tail, not from 1 + erf(.) = 1 - 0.99...
// (float's 1 + erf lost every digit of gelu(x) below x = -5.5).
//
// Scalars: std::erfc, float in double (correctly rounded but for rare ties).
// Float batches: our own branch-free form below (xsimd's erf computes both of
// its branches on every batch: 2.7x Eigen's time); double batches: xsimd's
// erfc (as fast as its erf, and it keeps the tail: 1e-12 relative at x = -5).
//
// The float batch form. With a = |x| and q = Phi(-a) (gelu = x q for x < 0,
// x - x q for x >= 0: no cancellation either side),
//   q = exp(-a^2/2) S(a),  S = P / Q on [0, 14.4] (degrees 4 and 5),
//   exp(-a^2/2) = 2^-n e^r,  r = n ln2 - a^2/2 in [-ln2/2 - 0.03, ln2/2 + 0.03],
//   e^r a polynomial of degree 6 in s = 2r.
// a^2 is taken exactly enough: a is rounded to a multiple of 2^-8 (ah, 12
// bits at most, so ah^2 is exact) and the rest, (a - ah)(a + ah), is small;
// 2^(32-n) is added to the exponent field of P/Q e^r and 2^-32 applied last,
// so that only the last product rounds into float's subnormals. |x| is
// clamped to 14.4, beyond which gelu(x) is x, or rounds to -0 for x < 0
// (-inf gives -0, +inf inf, NaN NaN, -0 -0). One path for every lane: 24
// multiplies or FMAs and one division a batch.
// The coefficients: least maximum relative error fits by scripts/fit_erf.py
// (S: 1.7e-8, e^r: 6e-9 with the float coefficients). Measured over every
// float (tests/tensor/gelu_accuracy.cpp): within 3.5 ulp of gelu for x >= 0
// and 6.6 ulp for x < 0 with FMA (AVX-512; 7.3 on SSE2, whose fma rounds
// twice), mean 0.5 ulp: the roundings of six steps. (The old 1 + erf lost
// every digit below x = -5.5.)
//
// Batches are templates on their type: the functions are xsimd's, found by
// argument-dependent lookup, so this header needs no xsimd.

#include "inplace/detail/config.hpp"

#include <cmath>
#include <type_traits>

INPLACE_FP_CONTRACT_BEGIN

namespace inplace::detail {

// A scalar: the floating type of the op's value (integers compute in double).
template <class F>
F gelu_scalar(F x) {
  using W = std::conditional_t<std::is_same_v<F, float>, double, F>;
  // Phi(-40) is 0 in double, Phi(-160) in long double: -inf gives -0, not -inf * 0
  constexpr W floor = std::is_same_v<W, long double> ? W(-160) : W(-40);
  const W w = W(x) < floor ? floor : W(x);
  return static_cast<F>(W(0.5) * w * std::erfc(w * W(-0.70710678118654752440)));
}

// always inlined: a call per batch reloads every constant (1.3x the time, g++ 12)
template <class B>
[[gnu::always_inline]] inline B gelu_float_batch(const B& x) {
  using I = decltype(nearbyint_as_int(x));  // int32 lanes, as many
  const B a = min(abs(x), B(14.4f));  // a NaN's lanes are replaced below
  const B ah = (a + B(32768.0f)) - B(32768.0f);  // a to a multiple of 2^-8
  const B hi = ah * ah, lo = (a - ah) * (a + ah);  // a^2 = hi + lo, hi exact
  // n = round(hi / (2 ln2)), 0 ... 150, as k = 1.5 * 2^23 + n: its low bits are n
  const B k = fma(hi, B(0.72134751f), B(12582912.0f));
  const B nf = k - B(12582912.0f);
  // s = 2r = 2n ln2 - a^2, 2 ln2 in two parts: nf * 1.38623046875 (12 bits) and its difference with hi are exact
  const B s = fma(nf, B(1.38623046875f), -hi) + fma(nf, B(6.38923666e-05f), -lo);
  B e = fma(s, B(2.15436594e-05f), B(0.000261732668f));  // e = e^r
  e = fma(e, s, B(0.00260433299f));
  e = fma(e, s, B(0.020833075f));
  e = fma(e, s, B(0.12499997f));
  e = fma(e, s, B(0.5f));
  e = fma(e, s, B(1.0f));
  B p = fma(a, B(0.00408623833f), B(0.0404453687f));
  p = fma(p, a, B(0.182699531f));
  p = fma(p, a, B(0.437605798f));
  p = fma(p, a, B(0.5f));
  B q = fma(a, B(0.0102425572f), B(0.101388097f));
  q = fma(q, a, B(0.468050033f));
  q = fma(q, a, B(1.200333f));
  q = fma(q, a, B(1.67309642f));
  q = fma(q, a, B(1.0f));
  // |x| Phi(-|x|) = a P/Q e^r 2^-n: P/Q e^r 2^(32-n), at least 2^-124, is a normal
  // float (2^(32-n) added to its exponent field), so only the last product rounds into subnormals
  const B v = bitwise_cast<B>(bitwise_cast<I>(p / q * e) + (I(32 << 23) - (bitwise_cast<I>(k) << 23)));
  const B t = a * v * B(2.32830644e-10f);  // 2^-32
  return select(x < B(0.0f), -t, x - t);  // -0 - t is -0
}

// A batch: float's own form above; double's through xsimd's erfc.
template <class B>
[[gnu::always_inline]] inline B gelu_batch(const B& x) {
  using T = typename B::value_type;
  if constexpr (std::is_same_v<T, float>) {
    return gelu_float_batch(x);
  } else {
    // erfc(-w / sqrt 2) is 0 below -40 (-inf gives -0) and 2 above 40 (xsimd 8's erfc gives NaN far out)
    const B w = select(x < B(T(-40)), B(T(-40)), x);
    return T(0.5) * w * erfc(min(w, B(T(40))) * B(T(-0.70710678118654752440)));
  }
}

}  // namespace inplace::detail

INPLACE_FP_CONTRACT_END
