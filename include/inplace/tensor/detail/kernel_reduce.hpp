#pragma once
// Summation kernels behind reduce_sum (tensor_opaque.hpp): a contiguous run
// (sum_run) and the columns of a matrix whose rows are contiguous (sum_columns).
//
// sum_run is blocked and pairwise. A block of up to B = 16 * L elements is
// summed in T by L lanes (8 SIMD batches of W elements, L = 8 W; 32 lanes
// without xsimd), each lane adding at most 16 elements; the lanes are then
// added as a tree (3 levels over the batches, log2 W inside one). Blocks are
// added pairwise in sum_t<T> (double for float). Every element therefore
// passes through at most 15 + 3 + log2 W + 1 <= 23 roundings in T (the last
// one adds the fewer than W elements past the last whole batch) and
// 2 ceil(log2(n / B)) in sum_t<T>, which gives the bound in docs/tensors.md:
//   |s - S| <= u |S| + 23 u sum|x_i|             (float, u = 2^-24; the double part adds < 2^-52 log2 n)
//   |s - S| <= (23 + 2 ceil(log2 n)) u sum|x_i|  (double, u = 2^-53)
// Eight independent accumulators also hide the adder's latency, which a single
// running sum cannot (it is what makes the loop run at the load units' speed).

#include "inplace/error.hpp"
#include "inplace/ops/reductions.hpp"
#include "inplace/tensor/detail/texpr_simd.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail::texpr {

// Floating sums in double (long double stays): 1e6 floats keep float precision;
// signed integers in their unsigned twin, so an overflowing sum wraps as NumPy's
// (the reductions' accumulator type, ops/reductions.hpp).
template <class T>
using sum_t = ops::wide_sum_t<T>;
// What a block's partial sums are kept in: T, or sum_t<T> for integers (signed
// ones unsigned: wrapping, never undefined); floating blocks stay in T.
template <class T>
using block_t = std::conditional_t<std::is_integral_v<T>, sum_t<T>, T>;

namespace reduce {

// Lanes per block and elements per lane.
inline constexpr std::size_t per_lane = 16;
template <class T>
constexpr std::size_t lanes() {
#if INPLACE_HAS_XSIMD
  if constexpr (simd_type<T>) return 8 * xsimd::batch<T>::size;
#endif
  return 32;
}
template <class T>
inline constexpr std::size_t block = per_lane * lanes<T>();

// A short run (a row of a matrix): two accumulators, at most 8 elements per
// lane, a shorter tree. It is inlined into row loops; longer runs take a call.
template <class T>
inline constexpr std::size_t short_run = 0;
#if INPLACE_HAS_XSIMD
template <class T>
  requires simd_type<T>
inline constexpr std::size_t short_run<T> = 16 * xsimd::batch<T>::size;

template <class T>
[[gnu::always_inline]] inline T short_sum(const T* p, std::size_t n) {
  using B = xsimd::batch<T>;
  constexpr std::size_t W = B::size;
  std::size_t i = 0;
  B a0(T{}), a1(T{});
  for (; i + 2 * W <= n; i += 2 * W) {
    a0 += B::load_unaligned(p + i);
    a1 += B::load_unaligned(p + i + W);
  }
  if (i + W <= n) a0 += B::load_unaligned(p + i), i += W;
  T tail{};
  for (; i < n; ++i) tail += p[i];  // fewer than W elements
  return xsimd::hadd(a0 + a1) + tail;
}
#endif

// The sum of one block (n <= block<T>) in T, as described above.
template <class T>
[[gnu::always_inline]] inline T block_sum(const T* p, std::size_t n) {
  std::size_t i = 0;
  T tail{};
#if INPLACE_HAS_XSIMD
  if constexpr (simd_type<T>) {
    using B = xsimd::batch<T>;
    constexpr std::size_t W = B::size;
    if (n <= short_run<T>) return short_sum(p, n);
    B a0(T{}), a1(T{}), a2(T{}), a3(T{}), a4(T{}), a5(T{}), a6(T{}), a7(T{});
    for (; i + 8 * W <= n; i += 8 * W) {
      a0 += B::load_unaligned(p + i);
      a1 += B::load_unaligned(p + i + W);
      a2 += B::load_unaligned(p + i + 2 * W);
      a3 += B::load_unaligned(p + i + 3 * W);
      a4 += B::load_unaligned(p + i + 4 * W);
      a5 += B::load_unaligned(p + i + 5 * W);
      a6 += B::load_unaligned(p + i + 6 * W);
      a7 += B::load_unaligned(p + i + 7 * W);
    }
    // At most seven whole batches are left, one into each accumulator: no lane adds more than 16 elements.
    switch ((n - i) / W) {
      case 7: a6 += B::load_unaligned(p + i + 6 * W); [[fallthrough]];
      case 6: a5 += B::load_unaligned(p + i + 5 * W); [[fallthrough]];
      case 5: a4 += B::load_unaligned(p + i + 4 * W); [[fallthrough]];
      case 4: a3 += B::load_unaligned(p + i + 3 * W); [[fallthrough]];
      case 3: a2 += B::load_unaligned(p + i + 2 * W); [[fallthrough]];
      case 2: a1 += B::load_unaligned(p + i + W); [[fallthrough]];
      case 1: a0 += B::load_unaligned(p + i); [[fallthrough]];
      default: i += (n - i) / W * W;
    }
    for (; i < n; ++i) tail += p[i];  // fewer than W elements
    return xsimd::hadd(((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7))) + tail;
  }
#endif
  constexpr std::size_t L = lanes<T>();
  using A = block_t<T>;
  A acc[L] = {};
  for (; i + L <= n; i += L)
    for (std::size_t l = 0; l < L; ++l) acc[l] += static_cast<A>(p[i + l]);
  for (std::size_t l = 0; i < n; ++i, ++l) acc[l] += static_cast<A>(p[i]);
  for (std::size_t w = L / 2; w > 0; w /= 2)  // a tree over the lanes
    for (std::size_t l = 0; l < w; ++l) acc[l] += acc[l + w];
  return static_cast<T>(acc[0] + static_cast<A>(tail));
}

}  // namespace reduce

// Block sums added pairwise without recursion: part[l] holds the sum of 2^l
// consecutive blocks (a binary counter), so a block's sum meets at most
// log2(blocks) additions while it is carried and as many when the parts are
// added at the end.
template <class T>
struct pairwise_parts {
  sum_t<T> part[64];
  std::size_t count = 0;
  void push(sum_t<T> s) {
    std::size_t l = 0;
    for (std::size_t c = count; c & 1; c >>= 1, ++l) s = part[l] + s;
    part[l] = s;
    ++count;
  }
  sum_t<T> total() const {
    sum_t<T> t{};
    bool first = true;
    for (std::size_t l = 0; (count >> l) != 0; ++l)
      if ((count >> l) & 1) t = first ? part[l] : part[l] + t, first = false;
    return t;
  }
};

// The sum of p[0], ..., p[n - 1]: blocks of reduce::block<T>, added pairwise.
template <class T>
sum_t<T> sum_blocks(const T* p, std::size_t n) {
  constexpr std::size_t B = reduce::block<T>;
  if (n <= B) return static_cast<sum_t<T>>(reduce::block_sum(p, n));
  pairwise_parts<T> parts;
  for (std::size_t i = 0; i < n; i += B) parts.push(static_cast<sum_t<T>>(reduce::block_sum(p + i, std::min(B, n - i))));
  return parts.total();
}

// sum_blocks over a run handed over piece by piece, in order (a fused
// reduction over every axis, run/detail/executor.hpp): the very additions of
// sum_blocks (and of sum_run) on the whole run. Whole blocks are summed where
// they lie; a block split between pieces is gathered in `held` first.
template <class T>
class block_summer {
  static constexpr std::size_t B = reduce::block<T>;
  pairwise_parts<T> parts;
  T held[B];
  std::size_t num_held = 0;

  void push(const T* p, std::size_t n) { parts.push(static_cast<sum_t<T>>(reduce::block_sum(p, n))); }

 public:
  void add(const T* p, std::size_t n) {
    if (num_held > 0) {
      const std::size_t k = std::min(B - num_held, n);
      std::copy_n(p, k, held + num_held);
      num_held += k, p += k, n -= k;
      if (num_held < B) return;
      push(held, B), num_held = 0;
    }
    for (; n >= B; p += B, n -= B) push(p, B);
    std::copy_n(p, n, held);
    num_held = n;
  }
  sum_t<T> sum() {
    if (parts.count == 0) return static_cast<sum_t<T>>(reduce::block_sum(held, num_held));  // n <= B: one block
    if (num_held > 0) push(held, num_held), num_held = 0;
    return parts.total();
  }
};

// sum_blocks with the short path inlined (a call per row cost 64-element rows
// a third of their time with clang++).
template <class T>
[[gnu::always_inline]] inline sum_t<T> sum_run(const T* p, std::size_t n) {
#if INPLACE_HAS_XSIMD
  if constexpr (reduce::short_run<T> > 0)
    if (n <= reduce::short_run<T>) return static_cast<sum_t<T>>(reduce::short_sum(p, n));
#endif
  return sum_blocks(p, n);
}

// The sum along a strided run (no SIMD): four accumulators in sum_t<T>, so the
// adds overlap; the error is at most (n / 4 + 2) roundings in sum_t<T>.
template <class T>
sum_t<T> sum_strided(const T* p, std::size_t n, std::ptrdiff_t s) {
  sum_t<T> a[4] = {};
  std::size_t j = 0;
  for (; j + 4 <= n; j += 4)
    for (std::size_t l = 0; l < 4; ++l) a[l] += static_cast<sum_t<T>>(p[static_cast<std::ptrdiff_t>(j + l) * s]);
  for (; j < n; ++j) a[0] += static_cast<sum_t<T>>(p[static_cast<std::ptrdiff_t>(j) * s]);
  return (a[0] + a[1]) + (a[2] + a[3]);
}

// One row of any stride.
template <class T>
sum_t<T> sum_row(const T* p, std::size_t n, std::ptrdiff_t s) {
  if (s == 1 || n <= 1) return sum_run(p, n);
  if (s == -1) return sum_run(p - (n - 1), n);  // the same elements, summed in memory order
  return sum_strided(p, n, s);
}

// Whether Reducer over T sums by reduce_sum's kernel (floating sums and means,
// accumulated in sum_t<T>): one answer for the unfused and the fused paths.
template <class Reducer, class T>
inline constexpr bool blocked_sum =
    (std::is_same_v<Reducer, ops::sum_reducer> || std::is_same_v<Reducer, ops::mean_reducer>) &&
    std::is_floating_point_v<T> && std::is_same_v<typename Reducer::template acc<T>, sum_t<T>>;

// Reducer over one run of n > 0 elements p[0], p[s], ...: floating sums and
// means by reduce_sum's kernel (sum_row: blocked, pairwise, SIMD), the others
// one step per element.
template <class Reducer, class R, class T>
R reduce_run(const T* p, std::size_t n, std::ptrdiff_t s) {
  const auto at = [&](std::size_t j) { return p[static_cast<std::ptrdiff_t>(j) * s]; };
  if constexpr (requires { Reducer::is_arg; }) {
    std::size_t best = 0;
    for (std::size_t j = 1; j < n; ++j)
      if (Reducer::better(at(j), at(best))) best = j;
    return static_cast<R>(best);
  } else {
    using A = typename Reducer::template acc<T>;
    if constexpr (blocked_sum<Reducer, T>) {
      return Reducer::template last<R>(sum_row(p, n, s), n);
    } else {
      A acc = static_cast<A>(Reducer::first(at(0)));
      for (std::size_t j = 1; j < n; ++j) acc = static_cast<A>(Reducer::step(acc, at(j)));
      return Reducer::template last<R>(acc, n);
    }
  }
}

// reduce_run over a contiguous run handed over piece by piece, in order (a
// fused reduction over every axis, run/detail/executor.hpp): floating sums and
// means by block_summer (sum_run's additions), the others one step per element,
// so the result is reduce_row's on the whole run.
template <class Reducer, class R, class T>
class run_reducer {
  using A = typename Reducer::template acc<T>;
  static constexpr bool sums = blocked_sum<Reducer, T>;
  std::conditional_t<sums, block_summer<T>, A> acc{};
  std::size_t n = 0;

 public:
  void add(const T* p, std::size_t m) {
    if constexpr (sums) {
      acc.add(p, m);
    } else {
      std::size_t j = 0;
      if (n == 0 && m > 0) acc = static_cast<A>(Reducer::first(p[0])), j = 1;
      for (; j < m; ++j) acc = static_cast<A>(Reducer::step(acc, p[j]));
    }
    n += m;
  }
  R result();
};

// Reducer (ops/reductions.hpp) over the contiguous row p[0..n): one result of
// a reduction over the last axis, by reduce_run as reduction_into
// (tensor_reductions.hpp) computes it, so that a row op's fused block
// (run/detail/executor.hpp) gives the very values of the unfused kernel.
template <class Reducer, class R, class T>
R reduce_row(const T* p, std::size_t n) {
  if (n == 0) {
    if constexpr (requires { Reducer::template empty<T>(); }) {
      return Reducer::template last<R>(Reducer::template empty<T>(), 0);
    } else {
      throw shape_error("inplace: shape_error: " + std::string(Reducer::name) +
                        " of an empty axis: no element to take it from (NumPy raises too)");
    }
  }
  return reduce_run<Reducer, R>(p, n, 1);
}

template <class Reducer, class R, class T>
R run_reducer<Reducer, R, T>::result() {
  if (n == 0) return reduce_row<Reducer, R>(static_cast<const T*>(nullptr), 0);
  if constexpr (sums) return Reducer::template last<R>(acc.sum(), n);
  else return Reducer::template last<R>(acc, n);
}

// out[j] = the sum over i < rows of p[i * rs + j], j < cols (each row contiguous).
// Column tiles of up to 4 batches stay in registers; rows are added in T in
// chunks of 16, up to four chunks' sums are added in T (registers too), and
// those sums into sum_t<T> accumulators: an element passes through at most
// 15 + 4 + 1 roundings in T and rows / 64 in sum_t<T>. (Flushing every chunk
// to sum_t<T> cost a 64 x 64 float matrix a third of its time.)
template <class T>
void sum_columns(T* out, const T* p, std::size_t rows, std::size_t cols, std::ptrdiff_t rs) {
  constexpr std::size_t chunk = 16;
  if (rows == 0) {
    std::fill_n(out, cols, T{});
    return;
  }
  std::size_t j = 0;
#if INPLACE_HAS_XSIMD
  if constexpr (simd_type<T>) {
    using B = xsimd::batch<T>;
    constexpr std::size_t W = B::size;
    auto tile = [&]<std::size_t K>(std::integral_constant<std::size_t, K>) {
      for (; j + K * W <= cols; j += K * W) {
        alignas(64) T part[K * W];
        sum_t<T> acc[K * W] = {};
        B b[K];
        for (std::size_t k = 0; k < K; ++k) b[k] = B(T{});
        for (std::size_t i0 = 0, c = 0; i0 < rows; i0 += chunk, ++c) {
          B a[K];
          for (std::size_t k = 0; k < K; ++k) a[k] = B(T{});
          const std::size_t i1 = std::min(rows, i0 + chunk);
          for (std::size_t i = i0; i < i1; ++i) {
            const T* r = p + static_cast<std::ptrdiff_t>(i) * rs + j;
            for (std::size_t k = 0; k < K; ++k) a[k] += B::load_unaligned(r + k * W);
          }
          for (std::size_t k = 0; k < K; ++k) b[k] += a[k];
          if (rows <= 4 * chunk && i1 == rows) {  // one flush only: b is the sum, in T
            for (std::size_t k = 0; k < K; ++k) b[k].store_unaligned(out + j + k * W);
            break;
          }
          if (c % 4 == 3 || i1 == rows) {  // four chunks, or the last: into sum_t<T>
            for (std::size_t k = 0; k < K; ++k) b[k].store_aligned(part + k * W), b[k] = B(T{});
            for (std::size_t l = 0; l < K * W; ++l) acc[l] += part[l];
          }
        }
        if (rows > 4 * chunk)
          for (std::size_t l = 0; l < K * W; ++l) out[j + l] = static_cast<T>(acc[l]);
      }
    };
    tile(std::integral_constant<std::size_t, 4>{});
    tile(std::integral_constant<std::size_t, 1>{});
  }
#endif
  // The columns left (fewer than W, or every column without SIMD), in the same chunks.
  {
    constexpr std::size_t TW = 64;
    for (; j < cols; j += TW) {
      const std::size_t tw = std::min(TW, cols - j);
      using A = block_t<T>;
      A part[TW];
      sum_t<T> acc[TW] = {};
      for (std::size_t i0 = 0; i0 < rows; i0 += chunk) {
        std::fill_n(part, tw, A{});
        const std::size_t i1 = std::min(rows, i0 + chunk);
        for (std::size_t i = i0; i < i1; ++i) {
          const T* r = p + static_cast<std::ptrdiff_t>(i) * rs + j;
          for (std::size_t l = 0; l < tw; ++l) part[l] += static_cast<A>(r[l]);
        }
        for (std::size_t l = 0; l < tw; ++l) acc[l] += part[l];
      }
      for (std::size_t l = 0; l < tw; ++l) out[j + l] = static_cast<T>(acc[l]);
    }
  }
}

}  // namespace inplace::detail::texpr

#include "inplace/detail/shadow_on.hpp"
