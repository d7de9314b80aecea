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

namespace inplace::detail::texpr {

namespace softmax_detail {

#if INPLACE_HAS_XSIMD
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
    const B e0 = xsimd::exp(B::load_unaligned(p + i) - shift);
    const B e1 = xsimd::exp(B::load_unaligned(p + i + W) - shift);
    e0.store_unaligned(p + i);
    e1.store_unaligned(p + i + W);
    s0 += e0;
    s1 += e1;
  }
  for (; i + W <= n; i += W) {
    const B e0 = xsimd::exp(B::load_unaligned(p + i) - shift);
    e0.store_unaligned(p + i);
    s0 += e0;
  }
  T total = xsimd::hadd(s0 + s1);
  if (i < n) {
    alignas(64) T rest[W] = {};
    std::copy(p + i, p + n, rest);
    xsimd::exp(B::load_aligned(rest) - shift).store_aligned(rest);
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
