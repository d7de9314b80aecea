#pragma once
// Softmax of one row in place (NumPy's exp(x - max) / sum, max-shifted so that
// large inputs stay finite). A contiguous float or double row runs on xsimd
// batches in three passes: the maximum, then exp and the running sum together
// (one pass where a loop of Eigen's expressions takes two), then the scale by
// one reciprocal. Any other row runs the scalar loop.
//
// NaN: a NaN anywhere in a row gives NaNs in the whole row. The scalar loop's
// maximum propagates it; the batch maximum may not, but the NaN's own
// exp(x - max) is NaN, so the sum, its reciprocal and every scaled element are.

#include "inplace/tensor/detail/kernel_reduce.hpp"
#include "inplace/tensor/detail/texpr_simd.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail::texpr {

namespace softmax_detail {

#if INPLACE_HAS_XSIMD
// exp(x) for x <= 0 (x - max) or NaN: 2^k p(r), k = round(x log2 e), r = x - k ln 2
// (ln 2 in two parts, Cody and Waite), p the Taylor polynomial of exp to degree
// 7 (float) or 13 (double), whose truncation error on |r| <= ln(2)/2 is under
// half an ulp; 2^k built in the exponent bits. Inputs below the smallest normal
// result give 0, and NaN stays NaN. It needs no overflow branch (x <= 0), and
// ran the exp pass faster than xsimd::exp on Zen 5 (docs/performance.md).
template <class T>
struct exp_constants;
template <>
struct exp_constants<float> {
  using I = std::int32_t;
  static constexpr int degree = 7, mantissa = 23, bias = 127;
  static constexpr float lo = -87.0f, ln2_hi = 0.693359375f, ln2_lo = -2.12194440e-4f;
};
template <>
struct exp_constants<double> {
  using I = std::int64_t;
  static constexpr int degree = 13, mantissa = 52, bias = 1023;
  static constexpr double lo = -708.0, ln2_hi = 6.93145751953125e-1, ln2_lo = 1.42860682030941723212e-6;
};

template <class T>
[[gnu::always_inline]] inline xsimd::batch<T> exp_nonpositive(const xsimd::batch<T>& x) {
  using B = xsimd::batch<T>;
  using C = exp_constants<T>;
  using I = xsimd::batch<typename C::I>;
  const B lo(C::lo);
  const B xc = xsimd::max(lo, x);  // max(lo, NaN) is NaN: the second operand wins
  // k + bias in the low mantissa bits of (1.5 * 2^mantissa + bias) + x log2(e), rounded to nearest.
  const T magic = T(1.5) * T(typename C::I(1) << C::mantissa) + T(C::bias);
  const B kb = xsimd::fma(xc, B(T(1.4426950408889634)), B(magic));
  const B k = kb - B(magic);
  const B r = xsimd::fnma(k, B(C::ln2_lo), xsimd::fnma(k, B(C::ln2_hi), xc));
  // Horner from 1 / degree! down to 1 / 0!, each coefficient 1 / i! rounded once
  // (i! is exact in double up to 18!).
  constexpr auto inverse_factorial = [](int i) {
    double f = 1;
    for (int j = 2; j <= i; ++j) f *= j;
    return static_cast<T>(1.0 / f);
  };
  B poly(inverse_factorial(C::degree));
#pragma GCC unroll 16
  for (int i = C::degree - 1; i >= 0; --i) poly = xsimd::fma(poly, r, B(inverse_factorial(i)));
  const B scale = xsimd::bitwise_cast<B>(xsimd::bitwise_cast<I>(kb) << C::mantissa);
  return xsimd::select(x < lo, B(T(0)), poly * scale);
}

template <class T>
void contiguous(T* p, std::size_t n) {
  using B = xsimd::batch<T>;
  constexpr std::size_t W = B::size;
  // 1. The maximum: four batches in flight, then the lanes and the tail.
  std::size_t i = 0;
  T mx = p[0];
  if (n >= W) {
    B m0 = B::load_unaligned(p), m1 = m0, m2 = m0, m3 = m0;
    for (; i + 4 * W <= n; i += 4 * W) {
      m0 = xsimd::max(m0, B::load_unaligned(p + i));
      m1 = xsimd::max(m1, B::load_unaligned(p + i + W));
      m2 = xsimd::max(m2, B::load_unaligned(p + i + 2 * W));
      m3 = xsimd::max(m3, B::load_unaligned(p + i + 3 * W));
    }
    for (; i + W <= n; i += W) m0 = xsimd::max(m0, B::load_unaligned(p + i));
    alignas(64) T lane[W];
    xsimd::max(xsimd::max(m0, m1), xsimd::max(m2, m3)).store_aligned(lane);
    for (std::size_t l = 0; l < W; ++l) mx = std::max(mx, lane[l]);
  }
  for (; i < n; ++i) mx = std::max(mx, p[i]);
  // 2. e = exp(x - max), stored, and its sum (two accumulators; the tail through a batch too).
  const B shift(mx);
  B s0(T{}), s1(T{});
  i = 0;
  for (; i + 2 * W <= n; i += 2 * W) {
    const B e0 = exp_nonpositive(B::load_unaligned(p + i) - shift);
    const B e1 = exp_nonpositive(B::load_unaligned(p + i + W) - shift);
    e0.store_unaligned(p + i);
    e1.store_unaligned(p + i + W);
    s0 += e0;
    s1 += e1;
  }
  for (; i + W <= n; i += W) {
    const B e0 = exp_nonpositive(B::load_unaligned(p + i) - shift);
    e0.store_unaligned(p + i);
    s0 += e0;
  }
  T total = xsimd::hadd(s0 + s1);
  if (i < n) {
    alignas(64) T rest[W] = {};
    std::copy(p + i, p + n, rest);
    exp_nonpositive(B::load_aligned(rest) - shift).store_aligned(rest);
    for (std::size_t l = 0; l < n - i; ++l) total += p[i + l] = rest[l];
  }
  // 3. One division, then products: within an ulp of NumPy's e / sum.
  const T inv = T(1) / total;
  const B scale(inv);
  i = 0;
  for (; i + 2 * W <= n; i += 2 * W) {
    (B::load_unaligned(p + i) * scale).store_unaligned(p + i);
    (B::load_unaligned(p + i + W) * scale).store_unaligned(p + i + W);
  }
  for (; i < n; ++i) p[i] *= inv;
}
#endif

}  // namespace softmax_detail

// Softmax of the row p[0], p[s], ..., p[(n - 1) s] in place.
template <class T>
void softmax_row(T* p, std::size_t n, std::ptrdiff_t s) {
  if (n == 0) return;
#if INPLACE_HAS_XSIMD
  if constexpr (simd_type<T>)
    if (s == 1) return softmax_detail::contiguous(p, n);
#endif
  auto along = [&](auto&& f) {
    for (std::size_t j = 0; j < n; ++j) f(p[static_cast<std::ptrdiff_t>(j) * s]);
  };
  T mx = p[0];
  along([&](T v) { mx = !std::isnan(mx) && (v > mx || std::isnan(v)) ? v : mx; });
  sum_t<T> total{};
  along([&](T& v) { total += v = std::exp(v - mx); });
  const sum_t<T> inv = 1 / total;  // one division: within an ulp of NumPy's e / sum
  along([&](T& v) { v = static_cast<T>(v * inv); });
}

}  // namespace inplace::detail::texpr

#include "inplace/detail/shadow_on.hpp"
