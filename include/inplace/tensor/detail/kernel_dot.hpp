#pragma once
// The matrix product kernels behind dot (tensor_opaque.hpp), for float and
// double with xsimd: the GotoBLAS / BLIS structure, seen from row-major C.
//
//   for each KC-deep slice of k:                 (pc)
//     for each NC-wide block of B's columns:      (jc; the packed block stays in L2)
//       pack B's block (kc x nc) into NR-column panels (each row of a panel: NR values)
//       for each MR-row panel of A:               (ir)
//         pack it (kc x MR: each column MR values; it stays in L1)
//         for each NR-column panel of B:          (jr; streamed from L2)
//           micro kernel: an MR x NR tile of C in registers, kc rank-1 updates
//
// The tile is MR rows by two batches (NR = 2 W): per step of k, two loads of B,
// MR broadcasts of A and 2 MR fused multiply-adds. MR is 12 with 32 vector
// registers (AVX-512: 24 accumulators), 6 with 16. Packing reads any strides
// (transposed views included), converts to the result's type and pads the last
// panels with zeros, so the micro kernel always runs whole tiles; the last
// panel of A runs the kernel of its rows rounded up to MR / 3 (a third of the
// FMAs for 256 = 21 x 12 + 4 rows), and a tile that C cannot take whole is
// written through a small buffer.
//
// Scratch: the packed panels live in a per-thread buffer that grows to the
// largest product seen (at most MR * KC + KC * NC elements: 524 KiB for float
// on AVX-512) and is kept for the next call: internal, never part of a result.
// A is packed one panel at a time, just before its use: all of A's rows at
// once (up to 2 MiB) bought no speed (the transformer's products, paired with
// Eigen: within the noise), and B's blocks of more than NC columns pack each
// panel again, a transposing copy of m x k values per block.
//
// Matrix-vector products (NumPy's (m,k)(k) and (k)(k,n)) and (k)(k) have their
// own loops: each row's dot product, or rows of B scaled and added into
// register tiles of the result.

#include "inplace/tensor/aligned_allocator.hpp"
#include "inplace/tensor/detail/texpr_simd.hpp"

#include <algorithm>
#include <cstddef>
#if defined(__AVX512F__)
#include <immintrin.h>
#endif
#include <type_traits>

namespace inplace::detail::texpr::gemm {

#if INPLACE_HAS_XSIMD

template <class V>
using batch = xsimd::batch<V>;
template <class V>
inline constexpr std::size_t W = batch<V>::size;
// 32 vector registers with AVX-512 (and on AArch64), 16 with SSE and AVX.
#if defined(__AVX512F__) || defined(__aarch64__)
inline constexpr std::size_t MR = 12;
#else
inline constexpr std::size_t MR = 6;
#endif
template <class V>
inline constexpr std::size_t NR = 2 * W<V>;
// The last panel of A runs a kernel of MQ or 2 MQ rows when fewer remain.
inline constexpr std::size_t MQ = MR / 3;
inline constexpr std::size_t KC = 256;
// B's packed block: about 512 KiB, half of a 1 MiB L2.
template <class V>
inline constexpr std::size_t NC = (512 * 1024 / (KC * sizeof(V))) / NR<V> * NR<V>;

// c (H x NR, row stride ldc) = (or +=, when add) the product of the top H rows
// of a packed A panel (kc columns of MR) and a packed B panel (kc rows of NR).
// H < MR for the last panel of A (256 rows: 21 panels of 12 and one of 4).
template <std::size_t H, class V>
[[gnu::always_inline]] inline void micro(std::size_t kc, const V* __restrict a, const V* __restrict b, V* c,
                                         std::ptrdiff_t ldc, bool add) {
  using B = batch<V>;
  constexpr std::size_t w = W<V>;
  B r0[H], r1[H];
#pragma GCC unroll 16
  for (std::size_t i = 0; i < H; ++i) r0[i] = r1[i] = B(V{});
  for (std::size_t p = 0; p < kc; ++p, a += MR, b += 2 * w) {
    const B b0 = B::load_aligned(b), b1 = B::load_aligned(b + w);
#pragma GCC unroll 16
    for (std::size_t i = 0; i < H; ++i) {
      const B ai(a[i]);
      r0[i] = xsimd::fma(ai, b0, r0[i]);
      r1[i] = xsimd::fma(ai, b1, r1[i]);
    }
  }
#pragma GCC unroll 16
  for (std::size_t i = 0; i < H; ++i) {
    V* ci = c + static_cast<std::ptrdiff_t>(i) * ldc;
    if (add) {
      r0[i] += B::load_unaligned(ci);
      r1[i] += B::load_unaligned(ci + w);
    }
    r0[i].store_unaligned(ci);
    r1[i].store_unaligned(ci + w);
  }
}

#if defined(__AVX512F__)
// The 16 x 16 transpose of r in registers (row q of the result: lane q of every
// row): pairs of rows interleaved by 32 and 64 bits within 128-bit lanes, then
// the lanes gathered by two rounds of shuffles.
inline void transpose16(__m512 r[16]) {
  __m512 t[16];
  for (int i = 0; i < 8; ++i) {
    t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  // Lane L of r[4 i + s]: rows 4 i .. 4 i + 3 of column 4 L + s.
  for (int i = 0; i < 4; ++i)
    for (int h = 0; h < 2; ++h) {
      const __m512d x = _mm512_castps_pd(t[4 * i + h]), y = _mm512_castps_pd(t[4 * i + h + 2]);
      r[4 * i + 2 * h] = _mm512_castpd_ps(_mm512_unpacklo_pd(x, y));
      r[4 * i + 2 * h + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(x, y));
    }
  for (int s = 0; s < 4; ++s) {
    t[s] = _mm512_shuffle_f32x4(r[s], r[4 + s], 0x88);  // lanes 0, 2 of each
    t[4 + s] = _mm512_shuffle_f32x4(r[s], r[4 + s], 0xdd);  // lanes 1, 3
    t[8 + s] = _mm512_shuffle_f32x4(r[8 + s], r[12 + s], 0x88);
    t[12 + s] = _mm512_shuffle_f32x4(r[8 + s], r[12 + s], 0xdd);
  }
  for (int s = 0; s < 4; ++s) {
    r[s] = _mm512_shuffle_f32x4(t[s], t[8 + s], 0x88);
    r[8 + s] = _mm512_shuffle_f32x4(t[s], t[8 + s], 0xdd);
    r[4 + s] = _mm512_shuffle_f32x4(t[4 + s], t[12 + s], 0x88);
    r[12 + s] = _mm512_shuffle_f32x4(t[4 + s], t[12 + s], 0xdd);
  }
}
#endif

// dst[p * Width + r] = src[r * rs + p] (p < kc, r < rows; zeros for rows <= r <
// Width): `rows` lines contiguous along p, transposed into one panel. A chunk of
// p (a cache line of each line) at a time, so every line of the source is read
// once even when the lines' stride sends them all to one L1 set (a stride of
// 8 KiB, a row of 2048 floats, did: twice the time of this order). Float on
// AVX-512 transposes 16 x 16 blocks in registers (q k^T packs both operands so:
// a tenth of its time in scalar moves).
template <std::size_t Width, class V, class T>
void pack_lines(V* __restrict dst, const T* src, std::ptrdiff_t rs, std::size_t rows, std::size_t kc) {
  std::size_t p0 = 0;
#if defined(__AVX512F__)
  if constexpr (std::is_same_v<V, float> && std::is_same_v<T, float>) {
    for (; p0 + 16 <= kc; p0 += 16, dst += 16 * Width)
      for (std::size_t g = 0; g < Width; g += 16) {  // lines g .. g + 15, zeros past rows
        __m512 r[16];
        for (std::size_t q = 0; q < 16; ++q)
          r[q] = g + q < rows ? _mm512_loadu_ps(src + static_cast<std::ptrdiff_t>(g + q) * rs + static_cast<std::ptrdiff_t>(p0))
                              : _mm512_setzero_ps();
        transpose16(r);
        const auto keep = static_cast<__mmask16>(Width - g >= 16 ? 0xffff : (1u << (Width - g)) - 1);
        for (std::size_t q = 0; q < 16; ++q) _mm512_mask_storeu_ps(dst + q * Width + g, keep, r[q]);
      }
  }
#endif
  constexpr std::size_t chunk = 64 / sizeof(T) < 4 ? 4 : 64 / sizeof(T);
  for (; p0 < kc; p0 += chunk, dst += chunk * Width) {
    const std::size_t pe = std::min(chunk, kc - p0);
    for (std::size_t r = 0; r < rows; ++r) {
      const T* s = src + static_cast<std::ptrdiff_t>(r) * rs + static_cast<std::ptrdiff_t>(p0);
      for (std::size_t p = 0; p < pe; ++p) dst[p * Width + r] = static_cast<V>(s[p]);
    }
    for (std::size_t r = rows; r < Width; ++r)
      for (std::size_t p = 0; p < pe; ++p) dst[p * Width + r] = V{};
  }
}

// A (rows i0.., columns p0.., any strides) packed into MR-row panels, zero-padded.
template <class V, class TA>
void pack_a(V* __restrict dst, const TA* a, std::ptrdiff_t a0, std::ptrdiff_t a1, std::size_t mc, std::size_t kc) {
  for (std::size_t i = 0; i < mc; i += MR, dst += MR * kc) {
    const std::size_t h = std::min(MR, mc - i);
    const TA* ai = a + static_cast<std::ptrdiff_t>(i) * a0;
    if (a1 == 1) {  // rows contiguous (row-major A)
      pack_lines<MR>(dst, ai, a0, h, kc);
      continue;
    }
    V* d = dst;
    for (std::size_t p = 0; p < kc; ++p, d += MR) {
      const TA* aip = ai + static_cast<std::ptrdiff_t>(p) * a1;
      std::size_t r = 0;
      for (; r < h; ++r) d[r] = static_cast<V>(aip[static_cast<std::ptrdiff_t>(r) * a0]);
      for (; r < MR; ++r) d[r] = V{};
    }
  }
}

// B (rows p0.., columns j0.., any strides) packed into NR-column panels, zero-padded.
template <class V, class TB>
void pack_b(V* __restrict dst, const TB* b, std::ptrdiff_t b0, std::ptrdiff_t b1, std::size_t kc, std::size_t nc) {
  constexpr std::size_t nr = NR<V>;
  if (b1 == 1) {
    // Rows contiguous (row-major B): each row of the block read once, left to
    // right, its NR-wide pieces stored into every panel. (Panel by panel, the
    // reads jumped a row stride every NR values: a quarter of a 512 x 512
    // product's time went to packing.)
    const std::size_t full = nc / nr * nr;
    for (std::size_t p = 0; p < kc; ++p) {
      const TB* bp = b + static_cast<std::ptrdiff_t>(p) * b0;
      V* d = dst + p * nr;  // panel j / nr begins at dst + j * kc
      std::size_t j = 0;
      for (; j < full; j += nr, d += kc * nr) {
        if constexpr (std::is_same_v<TB, V>) {  // by batches: g++ made the loop a memmove call of NR values
#pragma GCC unroll 4
          for (std::size_t c = 0; c < nr; c += W<V>) batch<V>::load_unaligned(bp + j + c).store_aligned(d + c);
        } else {
          for (std::size_t c = 0; c < nr; ++c) d[c] = static_cast<V>(bp[j + c]);
        }
      }
      if (j < nc) {
        std::size_t c = 0;
        for (; c < nc - j; ++c) d[c] = static_cast<V>(bp[j + c]);
        for (; c < nr; ++c) d[c] = V{};
      }
    }
    return;
  }
  for (std::size_t j = 0; j < nc; j += nr, dst += kc * nr) {
    const std::size_t w = std::min(nr, nc - j);
    const TB* bj = b + static_cast<std::ptrdiff_t>(j) * b1;
    if (b0 == 1) {  // columns contiguous (a transposed row-major matrix: k^T in q k^T)
      pack_lines<nr>(dst, bj, b1, w, kc);
      continue;
    }
    V* d = dst;
    for (std::size_t p = 0; p < kc; ++p, d += nr) {
      const TB* bpj = bj + static_cast<std::ptrdiff_t>(p) * b0;
      std::size_t c = 0;
      for (; c < w; ++c) d[c] = static_cast<V>(bpj[static_cast<std::ptrdiff_t>(c) * b1]);
      for (; c < nr; ++c) d[c] = V{};
    }
  }
}

// The per-thread packing buffer (see the header comment).
template <class V>
V* scratch(std::size_t n) {
  struct buffer {
    V* p = nullptr;
    std::size_t n = 0;
    ~buffer() { aligned_allocator<V>().deallocate(p, n); }
  };
  thread_local buffer b;
  if (b.n < n) {
    aligned_allocator<V>().deallocate(b.p, b.n);
    b.p = nullptr;
    b.n = 0;
    b.p = aligned_allocator<V>().allocate(n);
    b.n = n;
  }
  return b.p;
}

// c (m x n, row-major, overwritten) = a (m x k) * b (k x n), any strides.
template <class V, class TA, class TB>
void gemm(V* c, std::size_t m, std::size_t k, std::size_t n, const TA* a, std::ptrdiff_t a0, std::ptrdiff_t a1,
          const TB* b, std::ptrdiff_t b0, std::ptrdiff_t b1) {
  constexpr std::size_t nr = NR<V>;
  if (k == 0) {
    std::fill_n(c, m * n, V{});
    return;
  }
  const std::size_t ncap = std::min(NC<V>, (n + nr - 1) / nr * nr);
  const std::size_t kcap = std::min(KC, k);
  constexpr std::size_t line = 64 / sizeof(V);  // pb on a cache line too: the micro kernel's aligned loads
  const std::size_t asize = (MR * kcap + line - 1) / line * line;
  V* pa = scratch<V>(asize + ncap * kcap);
  V* pb = pa + asize;
  const auto ldc = static_cast<std::ptrdiff_t>(n);
  alignas(64) V edge[MR * nr];
  for (std::size_t p0 = 0; p0 < k; p0 += KC) {
    const std::size_t kc = std::min(KC, k - p0);
    const bool add = p0 > 0;
    for (std::size_t j0 = 0; j0 < n; j0 += NC<V>) {
      const std::size_t nc = std::min(NC<V>, n - j0);
      pack_b(pb, b + static_cast<std::ptrdiff_t>(p0) * b0 + static_cast<std::ptrdiff_t>(j0) * b1, b0, b1, kc, nc);
      for (std::size_t i = 0; i < m; i += MR) {
        const std::size_t h = std::min(MR, m - i);
        pack_a(pa, a + static_cast<std::ptrdiff_t>(i) * a0 + static_cast<std::ptrdiff_t>(p0) * a1, a0, a1, h, kc);
        for (std::size_t j = 0; j < nc; j += nr) {
          const V* bp = pb + j * kc;
          V* ct = c + static_cast<std::ptrdiff_t>(i) * ldc + static_cast<std::ptrdiff_t>(j0 + j);
          const std::size_t w = std::min(nr, nc - j);
          // the kernel of the fewest rows (MQ, 2 MQ or MR) that covers h; a tile
          // that C cannot take whole goes into `edge`, its valid part into c
          const bool whole = w == nr && (h == MQ || h == 2 * MQ || h == MR);
          V* const to = whole ? ct : edge;
          const std::ptrdiff_t ld = whole ? ldc : static_cast<std::ptrdiff_t>(nr);
          if (h <= MQ) micro<MQ>(kc, pa, bp, to, ld, whole && add);
          else if (h <= 2 * MQ) micro<2 * MQ>(kc, pa, bp, to, ld, whole && add);
          else micro<MR>(kc, pa, bp, to, ld, whole && add);
          if (!whole)
            for (std::size_t r = 0; r < h; ++r)
              for (std::size_t q = 0; q < w; ++q)
                ct[static_cast<std::ptrdiff_t>(r) * ldc + static_cast<std::ptrdiff_t>(q)] =
                    (add ? ct[static_cast<std::ptrdiff_t>(r) * ldc + static_cast<std::ptrdiff_t>(q)] : V{}) +
                    edge[r * nr + q];
        }
      }
    }
  }
}

// Lane q of the result: the sum of the lanes of s[q] (W batches).
template <class B>
B lane_sums(const B* s) {
#if XSIMD_VERSION_MAJOR == 8 && defined(__AVX512F__)
  if constexpr (std::is_same_v<typename B::value_type, float> && B::size == 16) {
    // xsimd 8.1's AVX-512 float haddp puts the sums of rows 4, 5, 2, 3 in lanes
    // 2-5 and of rows 12, 13, 10, 11 in lanes 10-13 (tests/tensor/kernels_native
    // checks every lane); the rows are handed to it in that order.
    constexpr std::size_t order[16] = {0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15};
    B r[16];
    for (std::size_t q = 0; q < 16; ++q) r[q] = s[order[q]];
    return xsimd::haddp(r);
  }
#endif
  return xsimd::haddp(s);
}

// y[i] = sum_p a[i, p] x[p], i < m: a's rows contiguous (stride a0), x contiguous.
// R = min(W, 8) rows at a time share each batch of x, one accumulator each, and
// their sums come out of one transposing reduction (xsimd::haddp) as lanes of a
// batch. (Sixteen rows at a time, for float on AVX-512, ran 1024 x 1024 at
// 0.70x Eigen: sixteen streams from L3; eight run at Eigen's speed.)
template <class V>
void gemv_rows(V* y, std::size_t m, std::size_t k, const V* a, std::ptrdiff_t a0, const V* x) {
  using B = batch<V>;
  constexpr std::size_t w = W<V>, R = w < 8 ? w : 8;
  std::size_t i = 0;
  for (; i + R <= m; i += R) {
    const V* r = a + static_cast<std::ptrdiff_t>(i) * a0;
    B s[w];
    for (std::size_t q = 0; q < w; ++q) s[q] = B(V{});
    std::size_t p = 0;
    for (; p + w <= k; p += w) {
      const B xp = B::load_unaligned(x + p);
#pragma GCC unroll 16
      for (std::size_t q = 0; q < R; ++q)
        s[q] = xsimd::fma(B::load_unaligned(r + static_cast<std::ptrdiff_t>(q) * a0 + static_cast<std::ptrdiff_t>(p)), xp, s[q]);
    }
    alignas(64) V t[w];
    lane_sums(s).store_aligned(t);
    for (std::size_t q = 0; q < R; ++q) {
      V u = t[q];
      for (std::size_t pp = p; pp < k; ++pp) u += r[static_cast<std::ptrdiff_t>(q) * a0 + static_cast<std::ptrdiff_t>(pp)] * x[pp];
      y[i + q] = u;
    }
  }
  for (; i < m; ++i) {
    const V* r = a + static_cast<std::ptrdiff_t>(i) * a0;
    B s0(V{}), s1(V{});
    std::size_t p = 0;
    for (; p + 2 * w <= k; p += 2 * w) {
      s0 = xsimd::fma(B::load_unaligned(r + p), B::load_unaligned(x + p), s0);
      s1 = xsimd::fma(B::load_unaligned(r + p + w), B::load_unaligned(x + p + w), s1);
    }
    for (; p + w <= k; p += w) s0 = xsimd::fma(B::load_unaligned(r + p), B::load_unaligned(x + p), s0);
    V t = xsimd::hadd(s0 + s1);
    for (; p < k; ++p) t += r[p] * x[p];
    y[i] = t;
  }
}

// y[j] = sum_p x[p] b[p, j], j < n: b's rows contiguous (stride b0), x of stride xs.
// Register tiles of y (8 batches, then 1), each over all of k; the columns left one by one.
template <class V, class TX>
void gemv_cols(V* y, std::size_t k, std::size_t n, const TX* x, std::ptrdiff_t xs, const V* b, std::ptrdiff_t b0) {
  using B = batch<V>;
  constexpr std::size_t w = W<V>;
  std::size_t j = 0;
  auto tile = [&]<std::size_t T>(std::integral_constant<std::size_t, T>) {
    for (; j + T * w <= n; j += T * w) {
      B s[T];
      for (std::size_t t = 0; t < T; ++t) s[t] = B(V{});
      const V* bp = b + j;
      for (std::size_t p = 0; p < k; ++p, bp += b0) {
        const B xp(static_cast<V>(x[static_cast<std::ptrdiff_t>(p) * xs]));
        for (std::size_t t = 0; t < T; ++t) s[t] = xsimd::fma(xp, B::load_unaligned(bp + t * w), s[t]);
      }
      for (std::size_t t = 0; t < T; ++t) s[t].store_unaligned(y + j + t * w);
    }
  };
  if (k * n * sizeof(V) > (std::size_t{512} << 10)) {
    // b larger than half an L2: the tiles above would walk it column strip by
    // column strip, a page per row; instead stream four rows at a time, y += x[p] b[p, :].
    const std::size_t n0 = n / w * w;
    std::fill_n(y, n0, V{});
    std::size_t p = 0;
    for (; p < k; p += 4) {
      const std::size_t h = std::min<std::size_t>(4, k - p);
      const V* r[4];
      B xp[4];
      for (std::size_t q = 0; q < 4; ++q) {
        const std::size_t pq = q < h ? p + q : p;  // a missing row: row p again, times 0
        r[q] = b + static_cast<std::ptrdiff_t>(pq) * b0;
        xp[q] = B(q < h ? static_cast<V>(x[static_cast<std::ptrdiff_t>(pq) * xs]) : V{});
      }
      for (std::size_t jj = 0; jj < n0; jj += w) {
        B acc = B::load_unaligned(y + jj);
        acc = xsimd::fma(xp[0], B::load_unaligned(r[0] + jj), acc);
        acc = xsimd::fma(xp[1], B::load_unaligned(r[1] + jj), acc);
        acc = xsimd::fma(xp[2], B::load_unaligned(r[2] + jj), acc);
        acc = xsimd::fma(xp[3], B::load_unaligned(r[3] + jj), acc);
        acc.store_unaligned(y + jj);
      }
    }
    j = n0;
  }
  tile(std::integral_constant<std::size_t, 8>{});
  tile(std::integral_constant<std::size_t, 1>{});
  for (; j < n; ++j) {
    V t{};
    for (std::size_t p = 0; p < k; ++p)
      t += static_cast<V>(x[static_cast<std::ptrdiff_t>(p) * xs]) * b[static_cast<std::ptrdiff_t>(p) * b0 + static_cast<std::ptrdiff_t>(j)];
    y[j] = t;
  }
}

#endif  // INPLACE_HAS_XSIMD

}  // namespace inplace::detail::texpr::gemm
