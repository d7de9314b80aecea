#pragma once
// gelu's kernels: gelu(x) = x Phi(x) = x/2 (1 + erf(x / sqrt 2)), Phi the
// standard normal CDF, written as x/2 erfc(-x / sqrt 2): for x < 0 the
// small result comes from erfc's own tail, not from 1 + erf(.) = 1 - 0.99...
// (float's 1 + erf lost every digit of gelu(x) below x = -5.5).
//
// Scalars: std::erfc, float in double (correctly rounded but for rare ties).
// Float batches: our own branch-free form below (xsimd's erf computes both of
// its branches on every batch, which ran 2.7x Eigen's time); double batches:
// xsimd's erfc.
//
// The float batch form. With a = |x| and q = Phi(-a) (gelu = x q for x <= 0,
// x - x q for x > 0: no cancellation either side),
//   q = exp(-a^2/2) S(a),  S = P / Q on [0, 14.5] (degrees 4 and 5),
//   exp(-a^2/2) = 2^-n e^r,  e^r = 1 + r + c2 r^2 + ... + c6 r^6, |r| <= ln2/2.
// a^2/2 is taken exactly enough: a is rounded to a multiple of 2^-8 (ah, 12
// bits at most, so ah^2/2 is exact) and the rest, (a - ah)(a + ah)/2, is
// small; 2^-n is applied in two halves, so that only the last product rounds
// into float's subnormals. |x| is clamped to 14.5, beyond which gelu(x) is x,
// or -0 for x < 0 (-inf gives -0, +inf inf, NaN NaN).
// The coefficients: least maximum relative error fits by scripts/fit_erf.py
// (S: 1.7e-8, e^r: 3.4e-9 with the float coefficients); the result is within
// 2 ulp of the correctly rounded gelu for every float (tests/tensor/gelu_accuracy.cpp).
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
  const W w = x < F(-40) ? W(-40) : W(x);  // Phi(-40) is 0 even in double: -inf gives -0
  return static_cast<F>(W(0.5) * w * std::erfc(w * W(-0.70710678118654752440)));
}

// always inlined: a call per batch reloads every constant (1.3x the time, g++ 12)
template <class B>
[[gnu::always_inline]] inline B gelu_float_batch(const B& x) {
  const B a = min(abs(x), B(14.4f));  // a NaN's lanes are replaced below
  const B ah = (a + B(32768.0f)) - B(32768.0f);  // a to a multiple of 2^-8
  const B h = ah * B(0.5f);
  const B hi = h * ah, lo = (a - ah) * fma(a, B(0.5f), h);  // a^2/2 = hi + lo, hi exact
  const auto n = nearbyint_as_int(hi * B(1.44269504f));  // about a^2/2 / ln2: 0 ... 150
  const B nf = to_float(n);
  // r = n ln2 - a^2/2, ln2 in two parts: nf * 0.693115234375 (12 bits) and its difference with hi are exact
  const B r = fma(nf, B(0.693115234375f), -hi) + fma(nf, B(3.19461833e-05f), -lo);
  B e = fma(r, B(0.00136363273f), B(0.0083706826f));
  e = fma(e, r, B(0.0416710749f));
  e = fma(e, r, B(0.166665033f));
  e = fma(e, r, B(0.499999851f));
  e = fma(e, r, B(1.0f));
  e = fma(e, r, B(1.0f));
  B p = fma(a, B(0.00408623833f), B(0.0404453687f));
  p = fma(p, a, B(0.182699531f));
  p = fma(p, a, B(0.437605798f));
  p = fma(p, a, B(0.5f));
  B q = fma(a, B(0.0102425572f), B(0.101388097f));
  q = fma(q, a, B(0.468050033f));
  q = fma(q, a, B(1.200333f));
  q = fma(q, a, B(1.67309642f));
  q = fma(q, a, B(1.0f));
  // |x| Phi(-|x|) = a P/Q e^r 2^-n: 2^(24-n) is a normal float, so only the last product rounds into subnormals
  const B t = ldexp(a * (p / q * e), 24 - n) * B(5.96046448e-08f);
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
