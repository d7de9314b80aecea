#pragma once
// The opaque standard ops on tensors: they run now and
// return a new owning tensor (softmax_inplace: the operand's storage). dot,
// matmul and reduce_sum run their op class's kernel (ops/opaque.hpp), as a
// graph does, and softmax the row loop of softmax's kernel (softmax_rows); the
// kernels' bodies are here (dot_into, matmul_into, reduce_sum_into,
// softmax_into) and in detail/kernel_*.hpp.
//
//   ip::dot(a, b)             matrix product, NumPy's rules for vectors:
//                             (m,k)(k,n) -> (m,n), (k)(k,n) -> (n), (m,k)(k) -> (m),
//                             (k)(k) -> rank 0; element type: the common type
//   ip::matmul(a, b)          NumPy's a @ b: batched over the axes before the last
//                             two (broadcast), (2,1,3,4) @ (5,4,6) -> (2,5,3,6);
//                             a vector operand promoted, its added axis dropped
//   ip::reduce_sum(a)         the sum of every element, a rank-0 tensor
//   ip::reduce_sum<Axis>(a)   the sum over one axis (NumPy's a.sum(axis=Axis), negative from the end)
//   ip::softmax(a)            softmax over the last axis, a new tensor like a
//   ip::softmax_inplace(a)    the same in a's storage, returned as tensor_inplace.hpp does
//
// Operands are tensors, views (any strides) or expressions (evaluated into a
// temporary first: an opaque op cannot be fused). Floating sums accumulate in
// double at least, integer sums in their own type.

#include "inplace/tensor/assign.hpp"
#include "inplace/tensor/detail/kernel_blas.hpp"
#include "inplace/tensor/detail/kernel_dot.hpp"
#include "inplace/tensor/detail/kernel_reduce.hpp"
#include "inplace/tensor/detail/kernel_softmax.hpp"
#include "inplace/tensor/detail/parallel.hpp"
#include "inplace/tensor/detail/tensor_fwd.hpp"
#include "inplace/tensor/detail/tensor_layout.hpp"
#include "inplace/tensor/detail/texpr_node.hpp"
#include "inplace/error.hpp"
#include "inplace/ops/opaque.hpp"
#include "inplace/tensor/tensor.hpp"
#include "inplace/tensor/tensor_copy.hpp"
#include "inplace/tensor/tensor_inplace.hpp"
#include "inplace/tensor/tensor_view.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "inplace/detail/shadow_off.hpp"

namespace inplace {
namespace detail::texpr {

// Calls f with a view of x (rank only). A tensor or view is read where it lives;
// an expression has no storage, so it is evaluated into a temporary first.
template <class X, class F>
decltype(auto) with_view(X&& x, F&& f) {
  if constexpr (node_like<X>) {
    const tensor<value_t<X>, rank_spec<rank_v<X>>> t(std::forward<X>(x));
    return std::forward<F>(f)(tx_view_of(t));
  } else return std::forward<F>(f)(tx_view_of(x));
}

// Calls f(first, length, stride) for every row (the last axis) of a strided
// array, in row-major order; a rank-0 array is one row of one element.
template <class T, std::size_t N, class F>
void for_each_row(T* p, const tx_extents<N>& e, const tx_strides<N>& s, F&& f) {
  if constexpr (N == 0) {
    f(p, std::size_t{1}, std::ptrdiff_t{1});
  } else {
    std::array<std::size_t, N> i{};
    for (std::size_t r = 0, rows = tx_count(e) ? tx_count(e) / e[N - 1] : 0; r < rows; ++r) {
      std::ptrdiff_t off = 0;
      for (std::size_t a = 0; a + 1 < N; ++a) off += static_cast<std::ptrdiff_t>(i[a]) * s[a];
      f(p + off, e[N - 1], s[N - 1]);
      for (std::size_t a = N - 1; a-- > 0;) {  // the next row: an odometer over the outer axes
        if (++i[a] < e[a]) break;
        i[a] = 0;
      }
    }
  }
}

// for_each_row, with the rows split over threads (parallel.hpp) when there are
// `threshold` elements or more and the outer axes step through memory as one
// (row r at p + r * s[N - 2]: any contiguous or row-sliced array); f must not throw.
template <class T, std::size_t N, class F>
void for_each_row_parallel(T* p, const tx_extents<N>& e, const tx_strides<N>& s, std::size_t threshold, F&& f) {
  if constexpr (N >= 2) {
    bool uniform = true;
    for (std::size_t a = 0; a + 2 < N; ++a) uniform = uniform && s[a] == s[a + 1] * static_cast<std::ptrdiff_t>(e[a + 1]);
    const std::size_t parts = uniform && e[N - 1] > 0 ? parallel_threads(tx_count(e), threshold) : 1;
    if (parts > 1) {
      parallel_ranges(parts, tx_count(e) / e[N - 1], 1, [&](std::size_t, std::size_t r0, std::size_t r1) {
        for (std::size_t r = r0; r < r1; ++r) f(p + static_cast<std::ptrdiff_t>(r) * s[N - 2], e[N - 1], s[N - 1]);
      });
      return;
    }
  }
  for_each_row(p, e, s, std::forward<F>(f));
}

// Calls f(element) along one row; the unit-stride branch is the one that vectorises.
template <class T, class F>
void along(T* p, std::size_t n, std::ptrdiff_t s, F&& f) {
  if (s == 1)
    for (std::size_t j = 0; j < n; ++j) f(p[j]);
  else
    for (std::size_t j = 0; j < n; ++j) f(p[static_cast<std::ptrdiff_t>(j) * s]);
}

// c (m x n, row-major, zero) += a (m x k) * b (k x n), strides in elements; b's
// rows contiguous (or n <= 1). Order i, p, j: the inner loop walks a row of b
// and of c. The product of types without SIMD batches (integers, long double).
template <class V, class TA, class TB>
void matmul(V* c, std::size_t m, std::size_t k, std::size_t n, const TA* a, std::ptrdiff_t a0, std::ptrdiff_t a1,
            const TB* b, std::ptrdiff_t b0) {
  for (std::size_t i = 0; i < m; ++i) {
    V* ci = c + i * n;
    for (std::size_t p = 0; p < k; ++p) {
      const auto ii = static_cast<std::ptrdiff_t>(i), pp = static_cast<std::ptrdiff_t>(p);
      const V aip = static_cast<V>(a[ii * a0 + pp * a1]);
      const TB* bp = b + pp * b0;
      for (std::size_t j = 0; j < n; ++j)  // (ops' add and mul: integers wrap as NumPy's, never undefined)
        ci[j] = static_cast<V>(ops::add{}(ci[j], ops::mul{}(aip, static_cast<V>(bp[j]))));
    }
  }
}

template <std::size_t M, std::size_t N>
[[noreturn, gnu::cold, gnu::noinline]] void throw_dot_mismatch(const tx_extents<M>& a, const tx_extents<N>& b) {
  throw shape_error("inplace: shape_error: " + std::string(ops::dot::name) + ": operands with extents " +
                    tx_shape_string(a) + " and " + tx_shape_string(b) + " are not aligned: " +
                    std::to_string(a[M - 1]) + " (axis " + std::to_string(M - 1) + ") != " + std::to_string(b[0]) +
                    " (axis 0)");
}

// The kernels behind dot and reduce_sum, writing into storage the caller
// provides (the graph runtime passes the buffer its plan chose). Operands are
// views of any strides; `out` is contiguous, row-major, holds the result's
// extents, and overlaps no operand.

// The product without SIMD batches. b's rows contiguous: i, p, j loops, the
// inner one along a row of b and of c. Otherwise (a transposed b, whose columns
// are contiguous): one dot product per element, along a row of a and a column
// of b; no copy of b.
template <class V, class VA, class VB>
void dot_plain(V* out, const VA& va, const VB& vb) {
  constexpr std::size_t NA = VA::rank, NB = VB::rank;
  const std::size_t m = NA == 2 ? va.extent(0) : 1, k = vb.extent(0), n = NB == 2 ? vb.extent(1) : 1;
  const std::ptrdiff_t a0 = NA == 2 ? va.stride(0) : 0, a1 = va.stride(NA - 1);
  const std::ptrdiff_t b0 = vb.stride(0), b1 = NB == 2 ? vb.stride(1) : 0;
  if (n <= 1 || b1 == 1) {
    std::fill_n(out, m * n, V{});
    return matmul(out, m, k, n, va.data(), a0, a1, vb.data(), b0);
  }
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const auto* ai = va.data() + static_cast<std::ptrdiff_t>(i) * a0;
      const auto* bj = vb.data() + static_cast<std::ptrdiff_t>(j) * b1;
      V t{};
      for (std::size_t p = 0; p < k; ++p) {
        const auto pp = static_cast<std::ptrdiff_t>(p);
        t = static_cast<V>(ops::add{}(t, ops::mul{}(static_cast<V>(ai[pp * a1]), static_cast<V>(bj[pp * b0]))));
      }
      out[i * n + j] = t;
    }
}

#if INPLACE_HAS_BLAS
// dot_into on the BLAS (detail/kernel_blas.hpp); false when the operands do not suit it.
template <class V, class VA, class VB>
bool dot_blas(V* out, const VA& va, const VB& vb) {
  constexpr std::size_t NA = VA::rank, NB = VB::rank;
  if constexpr (NA == 1 && NB == 1) {
    return false;
  } else {
    const std::size_t m = NA == 2 ? va.extent(0) : 1, k = vb.extent(0), n = NB == 2 ? vb.extent(1) : 1;
    const std::ptrdiff_t a0 = NA == 2 ? va.stride(0) : 0, a1 = va.stride(NA - 1);
    const std::ptrdiff_t b0 = vb.stride(0), b1 = NB == 2 ? vb.stride(1) : 0;
    if constexpr (NA == 2 && NB == 2) return blas::gemm(out, m, k, n, va.data(), a0, a1, vb.data(), b0, b1);
    else if constexpr (NA == 2) return blas::gemv(out, m, k, va.data(), a0, a1, vb.data(), b0);
    else return blas::gemv(out, n, k, vb.data(), b1, b0, va.data(), a1);  // x^T b = b^T x
  }
}
#endif

// out (the result of va . vb, NumPy's rank rules) = va . vb. Float and double
// run the kernels of detail/kernel_dot.hpp (scratch memory for packing, see
// there), or the BLAS with INPLACE_USE_BLAS (detail/kernel_blas.hpp); a vector
// operand of another type or stride is copied once, O(k).
template <class V, class VA, class VB>
void dot_into(V* out, const VA& va, const VB& vb) {
  {  // empty products, for every path below: an empty operand may have no storage
    constexpr std::size_t NA = VA::rank, NB = VB::rank;
    const std::size_t m = NA == 2 ? va.extent(0) : 1, k = vb.extent(0), n = NB == 2 ? vb.extent(1) : 1;
    if (m == 0 || n == 0) return;  // nothing to write
    if (k == 0) {
      std::fill_n(out, m * n, V{});
      return;
    }
  }
#if INPLACE_HAS_BLAS
  if constexpr ((std::is_same_v<V, float> || std::is_same_v<V, double>) &&
                std::is_same_v<std::remove_const_t<typename VA::element_type>, V> &&
                std::is_same_v<std::remove_const_t<typename VB::element_type>, V>)
    if (dot_blas(out, va, vb)) return;
#endif
#if INPLACE_HAS_XSIMD
  if constexpr (simd_type<V>) {
    using TA = std::remove_const_t<typename VA::element_type>;
    using TB = std::remove_const_t<typename VB::element_type>;
    constexpr std::size_t NA = VA::rank, NB = VB::rank;
    const std::size_t m = NA == 2 ? va.extent(0) : 1, k = vb.extent(0), n = NB == 2 ? vb.extent(1) : 1;
    const std::ptrdiff_t a0 = NA == 2 ? va.stride(0) : 0, a1 = va.stride(NA - 1);
    const std::ptrdiff_t b0 = vb.stride(0), b1 = NB == 2 ? vb.stride(1) : 0;
    // A contiguous vector of V: the operand itself, or a copy.
    auto contiguous = [k](const auto* x, std::ptrdiff_t s, std::vector<V>& copy) -> const V* {
      if constexpr (std::is_same_v<std::remove_const_t<std::remove_pointer_t<decltype(x)>>, V>)
        if (s == 1 || k <= 1) return x;
      copy.resize(k);
      for (std::size_t p = 0; p < k; ++p) copy[p] = static_cast<V>(x[static_cast<std::ptrdiff_t>(p) * s]);
      return copy.data();
    };
    std::vector<V> copy;
    // With INPLACE_OPENMP, large products split the rows (or columns) of the
    // result over threads, each packing its own panels (parallel.hpp).
    const std::size_t parts = parallel_threads(m * k * n, parallel_dot_threshold);
    const auto gemm_rows = [&](std::size_t rows, const TA* a, std::ptrdiff_t s0, std::ptrdiff_t s1, const TB* b,
                               std::ptrdiff_t t0, std::ptrdiff_t t1, std::size_t cols) {
      parallel_ranges(parts, rows, gemm::MR, [&](std::size_t, std::size_t i0, std::size_t i1) {
        gemm::gemm(out + i0 * cols, i1 - i0, k, cols, a + static_cast<std::ptrdiff_t>(i0) * s0, s0, s1, b, t0, t1);
      });
    };
    const auto gemv_rows = [&](std::size_t rows, const V* a, std::ptrdiff_t s0, const V* x) {
      parallel_ranges(parts, rows, 16, [&](std::size_t, std::size_t i0, std::size_t i1) {
        gemm::gemv_rows(out + i0, i1 - i0, k, a + static_cast<std::ptrdiff_t>(i0) * s0, s0, x);
      });
    };
    const auto gemv_cols = [&](std::size_t cols, const auto* x, std::ptrdiff_t xs, const V* b, std::ptrdiff_t s0) {
      parallel_ranges(parts, cols, 64, [&](std::size_t, std::size_t j0, std::size_t j1) {
        gemm::gemv_cols(out + j0, k, j1 - j0, x, xs, b + j0, s0);
      });
    };
    if constexpr (NA == 2 && NB == 2) {
      return gemm_rows(m, va.data(), a0, a1, vb.data(), b0, b1, n);
    } else if constexpr (NA == 2) {  // (m, k) (k): one dot product per row of a
      if constexpr (std::is_same_v<TA, V>) {
        if (a1 == 1 || k <= 1) return gemv_rows(m, va.data(), a0, contiguous(vb.data(), b0, copy));
        if (a0 == 1 || m <= 1) return gemv_cols(m, vb.data(), b0, va.data(), a1);
      }
      return gemm_rows(m, va.data(), a0, a1, vb.data(), b0, std::ptrdiff_t{0}, 1);
    } else if constexpr (NB == 2) {  // (k) (k, n): rows of b scaled and added
      if constexpr (std::is_same_v<TB, V>) {
        if (b1 == 1 || n <= 1) return gemv_cols(n, va.data(), a1, vb.data(), b0);
        if (b0 == 1 || k <= 1) return gemv_rows(n, vb.data(), b1, contiguous(va.data(), a1, copy));
      }
      return gemm_rows(1, va.data(), std::ptrdiff_t{0}, a1, vb.data(), b0, b1, n);
    } else {  // (k) (k)
      std::vector<V> copy2;
      return gemm::gemv_rows(out, 1, k, contiguous(va.data(), a1, copy), 0, contiguous(vb.data(), b0, copy2));
    }
  }
#endif
  dot_plain(out, va, vb);
}

// out (NumPy's matmul of va and vb, ops::matmul's extents; contiguous) = va @ vb:
// dot_into (and so the gemm, or the BLAS) once per element of the batch axes,
// each operand's batch axes read at stride 0 where they broadcast. The extents
// have been checked (ops::matmul::output_shape).
template <class V, class VA, class VB>
void matmul_into(V* out, const VA& va, const VB& vb) {
  constexpr std::size_t NA = VA::rank, NB = VB::rank;
  constexpr std::size_t CA = NA < 2 ? NA : 2, CB = NB < 2 ? NB : 2;  // the core (matrix or vector) axes
  constexpr std::size_t BA = NA - CA, BB = NB - CB, BR = BA > BB ? BA : BB;
  if constexpr (BR == 0) {
    dot_into(out, va, vb);
  } else {
    tx_extents<BR> e{};
    tx_strides<BR> sa{}, sb{};
    for (std::size_t q = 0; q < BR; ++q) {  // q counts the batch axes from the right
      const std::size_t ea = q < BA ? va.extent(BA - 1 - q) : 1, eb = q < BB ? vb.extent(BB - 1 - q) : 1;
      e[BR - 1 - q] = ea == 1 ? eb : ea;
      sa[BR - 1 - q] = ea == 1 ? 0 : va.stride(BA - 1 - q);
      sb[BR - 1 - q] = eb == 1 ? 0 : vb.stride(BB - 1 - q);
    }
    tx_extents<CA> ca{};
    tx_strides<CA> csa{};
    tx_extents<CB> cb{};
    tx_strides<CB> csb{};
    for (std::size_t i = 0; i < CA; ++i) ca[i] = va.extent(BA + i), csa[i] = va.stride(BA + i);
    for (std::size_t i = 0; i < CB; ++i) cb[i] = vb.extent(BB + i), csb[i] = vb.stride(BB + i);
    const std::size_t m = CA == 2 ? ca[0] : 1, n = CB == 2 ? cb[1] : 1, count = tx_count(e);
    if (count == 0 || m * n == 0) return;  // nothing to write
    if (tx_count(va.extents()) == 0 || tx_count(vb.extents()) == 0) {  // k == 0 (and maybe no storage)
      std::fill_n(out, count * m * n, V{});
      return;
    }
    if constexpr (BB == 0 && CA == 2) {  // one b for the whole batch: a's rows may be one matrix
      bool rows = true;  // every batch axis steps over the rows before it as one
      std::ptrdiff_t step = csa[0] * static_cast<std::ptrdiff_t>(m);
      for (std::size_t q = BR; q-- > 0; step *= static_cast<std::ptrdiff_t>(e[q])) rows = rows && (e[q] == 1 || sa[q] == step);
      if (rows) {  // a (count m, k) @ b: one product, its rows split over threads as dot's are
        const tx_extents<2> all{count * m, ca[1]};
        return dot_into(out, tx_view<typename VA::element_type, 2>(tx_unchecked, va.data(), all, csa), vb);
      }
    }
    // With INPLACE_OPENMP, a batch of products each too small to split is
    // split by its elements, each thread running whole products.
    const std::size_t each = m * ca[CA - 1] * n;
    const std::size_t parts = each < parallel_dot_threshold ? parallel_threads(count * each, parallel_dot_threshold) : 1;
    parallel_ranges(parts, count, 1, [&](std::size_t, std::size_t t0, std::size_t t1) {
      for (std::size_t t = t0; t < t1; ++t) {
        std::ptrdiff_t oa = 0, ob = 0;  // batch element t's operands
        for (std::size_t q = BR, rest = t; q-- > 0; rest /= e[q]) {
          const auto iq = static_cast<std::ptrdiff_t>(rest % e[q]);
          oa += iq * sa[q], ob += iq * sb[q];
        }
        dot_into(out + t * m * n, tx_view<typename VA::element_type, CA>(tx_unchecked, va.data() + oa, ca, csa),
                 tx_view<typename VB::element_type, CB>(tx_unchecked, vb.data() + ob, cb, csb));
      }
    });
  }
}

template <std::size_t M, std::size_t N>
[[noreturn, gnu::cold, gnu::noinline]] void throw_matmul_mismatch(const tx_extents<M>& a, const tx_extents<N>& b) {
  throw shape_error("inplace: shape_error: " + std::string(ops::matmul::name) + ": operands with extents " +
                    tx_shape_string(a) + " and " + tx_shape_string(b) + " do not fit: a's last axis must equal b's " +
                    (N == 1 ? "only" : "second-to-last") + " axis (" + std::to_string(a[M - 1]) + " and " +
                    std::to_string(b[N == 1 ? 0 : N - 2]) + "), and the axes before the last two must broadcast");
}

// The shape of ip::shape's extents.
template <std::size_t N>
constexpr shape shape_from(const tx_extents<N>& e) {
  shape s{N, {}};
  for (std::size_t i = 0; i < N; ++i) s.extent[i] = e[i];
  return s;
}

// The axes of v in the order that walks memory best for a sum over all of
// them: increasing |stride| innermost last, each negative stride flipped (the
// same elements, another order): a transposed or reversed contiguous view is
// then summed as one contiguous run.
template <class VA>
auto memory_order(const VA& v) {
  constexpr std::size_t N = VA::rank;
  auto* p = v.data();
  tx_extents<N> e = v.extents();
  tx_strides<N> s = v.strides();
  for (std::size_t a = 0; a < N; ++a)
    if (s[a] < 0 && e[a] > 0) {
      p += static_cast<std::ptrdiff_t>(e[a] - 1) * s[a];
      s[a] = -s[a];
    }
  for (std::size_t i = 1; i < N; ++i)  // insertion sort, larger strides first
    for (std::size_t j = i; j > 0 && s[j - 1] < s[j]; --j) std::swap(s[j - 1], s[j]), std::swap(e[j - 1], e[j]);
  return std::tuple{p, e, s};
}

// out (rank N - 1, or one element when X == N) = the sum of v over axis X (every
// axis when X == N). Contiguous runs go through sum_run (blocked, pairwise, SIMD),
// the columns of a matrix with contiguous rows through sum_columns; see
// detail/kernel_reduce.hpp for the error bound.
template <std::size_t X, class T, class VA>
void reduce_sum_into(T* out, const VA& v) {
  constexpr std::size_t N = VA::rank;
  constexpr std::size_t NR = X == N ? 0 : N - 1;
  if constexpr (X == N) {  // every axis: contiguous in some order is one run, else row by row
    const auto [p, e, s] = memory_order(v);
    if (tx_count(e) == 0) {
      *out = T{};
    } else if (tx_is_contiguous(e, s)) {
      const std::size_t n = tx_count(e), parts = parallel_threads(n, parallel_reduce_threshold);
      if (parts <= 1) {
        *out = static_cast<T>(sum_run(p, n));
      } else {  // one run per thread, of whole blocks; their sums added in order
        std::vector<sum_t<T>> part(parts);
        const T* first = p;  // (a structured binding cannot be captured before C++20's P1091 in clang 14)
        parallel_ranges(parts, n, reduce::block<T>,
                        [&](std::size_t t, std::size_t i0, std::size_t i1) { part[t] = sum_run(first + i0, i1 - i0); });
        sum_t<T> acc{};
        for (const auto& x : part) acc += x;
        *out = static_cast<T>(acc);
      }
    } else {
      sum_t<T> acc{};
      for_each_row(p, e, s, [&](const T* q, std::size_t n, std::ptrdiff_t st) { acc += sum_row(q, n, st); });
      *out = static_cast<T>(acc);
    }
    return;
  } else {
    if constexpr (N == 2) {  // a matrix: whichever axis is contiguous decides the loop
      constexpr std::size_t O = 1 - X;  // the axis that stays
      if (v.extent(O) == 0) return;
      if (v.extent(X) == 0) {  // empty sums (and maybe no storage: no pointer arithmetic on it)
        std::fill_n(out, v.extent(O), T{});
        return;
      }
      const std::size_t parts = parallel_threads(tx_count(v.extents()), parallel_reduce_threshold);
      if (v.stride(O) == 1 && v.extent(O) > 1) {  // column sums: each thread its columns
        parallel_ranges(parts, v.extent(O), 64, [&](std::size_t, std::size_t j0, std::size_t j1) {
          sum_columns(out + j0, v.data() + j0, v.extent(X), j1 - j0, v.stride(X));
        });
        return;
      }
      parallel_ranges(parts, v.extent(O), 1, [&](std::size_t, std::size_t i0, std::size_t i1) {
        for (std::size_t i = i0; i < i1; ++i)
          out[i] = static_cast<T>(sum_row(v.data() + static_cast<std::ptrdiff_t>(i) * v.stride(O), v.extent(X), v.stride(X)));
      });
      return;
    }
    tx_extents<NR> er{};  // the result's extents, and v's strides along them
    tx_strides<NR> sr{};
    for (std::size_t i = 0, r = 0; i < N; ++i)
      if (i != X) er[r] = v.extent(i), sr[r++] = v.stride(i);
    std::fill_n(out, tx_count(er), T{});  // rows of length 0 sum to 0
    if constexpr (X + 1 == N) {  // each row into its own sum
      T* o = out;
      for_each_row(v.data(), v.extents(), v.strides(),
                   [&](const T* p, std::size_t n, std::ptrdiff_t s) { *o++ = static_cast<T>(sum_row(p, n, s)); });
    } else {  // add each slice along X (rank N - 1, its rows intact) into accumulators
      std::vector<sum_t<T>> acc(tx_count(er));
      for (std::size_t q = 0; q < v.extent(X); ++q) {
        sum_t<T>* c = acc.data();
        for_each_row(v.data() + static_cast<std::ptrdiff_t>(q) * v.stride(X), er, sr,
                     [&](const T* p, std::size_t n, std::ptrdiff_t s) { along(p, n, s, [&](T x) { *c++ += static_cast<sum_t<T>>(x); }); });
      }
      for (std::size_t i = 0; i < acc.size(); ++i) out[i] = static_cast<T>(acc[i]);
    }
  }
}

// An operand's extents as far as its type fixes them (ip::dynamic where it
// does not), as a graph's shape: with it dot and matmul refuse at compile
// time what static extents alone show cannot fit, as the graph's ops do (and
// Eigen's fixed-size products), instead of throwing when they run.
template <class X>
constexpr shape static_operand_shape() {
  constexpr std::size_t n = rank_v<X>;
  const static_shape s = static_shape_of<std::remove_cvref_t<X>>();
  shape r{};
  r.rank = n;
  for (std::size_t i = 0; i < n; ++i) r.extent[i] = s.e[max_rank - n + i];
  return r;
}

}  // namespace detail::texpr

template <class A, class B>
  requires detail::texpr::operand<A> && detail::texpr::operand<B>
auto dot(A&& a, B&& b) {
  using namespace detail::texpr;
  constexpr std::size_t NA = rank_v<A>, NB = rank_v<B>;
  static_assert((NA == 1 || NA == 2) && (NB == 1 || NB == 2),
                "inplace: operand_rank: dot: each operand must have rank 1 (a vector) or 2 (a matrix); "
                "fix: reshape the operands to vectors or matrices.");
  static_assert(!((NA == 1 || NA == 2) && (NB == 1 || NB == 2)) ||
                    ops::dot::output_shape(0, {static_operand_shape<A>(), static_operand_shape<B>()}).rank != dynamic,
                "inplace: shape_mismatch: dot: the operands' static extents are not aligned (a's last axis must equal "
                "b's first); fix: transpose an operand, or give the operands extents that multiply.");
  using V = detail::common_dtype_t<value_t<A>, value_t<B>>;  // the one rule: int32 with float is double
  constexpr std::size_t NR = NA + NB - 2;

  const auto ea = shape_of(a);  // checked before an expression operand is evaluated
  const auto eb = shape_of(b);
  if (ea[NA - 1] != eb[0]) throw_dot_mismatch(ea, eb);
  detail::tx_extents<NR> er{};
  if constexpr (NA == 2) er[0] = ea[0];
  if constexpr (NB == 2) er[NR - 1] = eb[1];

  tensor<V, detail::rank_spec<NR>> out(detail::tx_uninitialized, er);
  with_view(std::forward<A>(a), [&](const auto& va) {
    with_view(std::forward<B>(b), [&](const auto& vb) { ops::dot{}.kernel(out.view(), va, vb); });
  });
  return out;
}

// matmul(a, b): NumPy's a @ b (ops::matmul's rule): batched over the axes
// before the last two, which broadcast; vectors promoted, the added axis dropped.
template <class A, class B>
  requires detail::texpr::operand<A> && detail::texpr::operand<B>
auto matmul(A&& a, B&& b) {
  using namespace detail::texpr;
  constexpr std::size_t NA = rank_v<A>, NB = rank_v<B>;
  static_assert(NA >= 1 && NB >= 1,
                "inplace: operand_rank: matmul: each operand must have rank 1 or more (NumPy's matmul refuses "
                "scalars); fix: multiply by a scalar with a * b instead.");
  static_assert(NA == 0 || NB == 0 ||
                    ops::matmul::output_shape(0, {static_operand_shape<A>(), static_operand_shape<B>()}).rank != dynamic,
                "inplace: shape_mismatch: matmul: the operands' static extents do not fit (a's last axis must equal "
                "b's second-to-last, and the axes before the last two must broadcast); fix: transpose an operand, "
                "or give the operands extents that multiply.");
  using V = detail::common_dtype_t<value_t<A>, value_t<B>>;
  constexpr std::size_t BA = NA > 2 ? NA - 2 : 0, BB = NB > 2 ? NB - 2 : 0;
  constexpr std::size_t R = (BA > BB ? BA : BB) + (NA >= 2) + (NB >= 2);  // the result's rank
  if constexpr (NA >= 1 && NB >= 1) {
    const auto ea = shape_of(a);  // checked before an expression operand is evaluated
    const auto eb = shape_of(b);
    const shape s = ops::matmul::output_shape(0, {shape_from(ea), shape_from(eb)});
    if (s.rank != R) throw_matmul_mismatch(ea, eb);
    detail::tx_extents<R> er{};
    for (std::size_t i = 0; i < R; ++i) er[i] = s.extent[i];

    tensor<V, detail::rank_spec<R>> out(detail::tx_uninitialized, er);
    with_view(std::forward<A>(a), [&](const auto& va) {
      with_view(std::forward<B>(b), [&](const auto& vb) { ops::matmul{}.kernel(out.view(), va, vb); });
    });
    return out;
  } else {
    return tensor<V, detail::rank_spec<R>>{};  // reported above; a result, so no follow-on error
  }
}

// reduce_sum(a): a rank-0 tensor; reduce_sum<Axis>(a): rank - 1, a's dtype
// (bool and narrower integers: ops::sum_dtype, int64 or uint64, as NumPy's).
// (With ip::keepdims, or several axes: tensor_reductions.hpp's.)
template <int Axis = ops::all_axes, class A>
  requires(detail::texpr::operand<A> && Axis != keepdims)
auto reduce_sum(A&& a) {
  using namespace detail::texpr;
  using T = value_t<A>;
  if constexpr (!std::is_same_v<ops::sum_dtype<T>, T>)
    return reduce_sum<Axis>(make(ops::cast<ops::sum_dtype<T>>{}, std::forward<A>(a)));
  else {
    constexpr std::size_t N = rank_v<A>;
    constexpr long long S = detail::reduce_axis<Axis, N>;
    static_assert(S >= 0 && (S < static_cast<long long>(N) || Axis == ops::all_axes),
                  "inplace: reduce_axis: reduce_sum<Axis>: Axis must be an axis of the operand (0 to rank - 1, or "
                  "-rank to -1 from the end) or ip::ops::all_axes; fix: pass an axis the operand has.");
    constexpr auto X = static_cast<std::size_t>(S < 0 ? 0 : S);  // N: every axis
    constexpr std::size_t NR = X == N ? 0 : N - 1;
    const auto e = shape_of(a);
    detail::tx_extents<NR> er{};
    if constexpr (X < N)
      for (std::size_t i = 0, r = 0; i < N; ++i)
        if (i != X) er[r++] = e[i];
    tensor<T, detail::rank_spec<NR>> out(detail::tx_uninitialized, er);
    with_view(std::forward<A>(a), [&](const auto& v) { ops::reduce_sum<Axis>{}.kernel(out.view(), v); });
    return out;
  }
}

namespace detail::texpr {
// softmax over the last axis of a, in place: row by row, the rows split over
// threads when there are many (for_each_row_parallel). a: a view, or a tensor
// (not const: its elements are written).
template <class A>
void softmax_rows(A&& a) {
  using E = std::remove_pointer_t<decltype(a.data())>;
  for_each_row_parallel(a.data(), a.extents(), a.strides(), parallel_softmax_threshold,
                        [](E* p, std::size_t n, std::ptrdiff_t st) { softmax_row(p, n, st); });
}
// ops::softmax's kernel: out = a (unless out is a's own storage: the in-place
// form), then its rows' softmax.
template <class O, class A>
void softmax_into(const O& out, const A& a) {
  if (out.data() != a.data()) detail::assign(out, a, assign_mode::noalias);
  softmax_rows(out);
}

// softmax's preconditions, one sentence each; false stops the caller (no error cascade).
template <std::size_t N, class T>
constexpr bool softmax_ok() {
  static_assert(N >= 1, "inplace: operand_rank: softmax: the operand must have rank 1 or more (softmax runs over "
                "the last axis); fix: pass a vector or a tensor of higher rank.");
  static_assert(std::is_floating_point_v<T>, "inplace: dtype: softmax: the operand must have a floating-point element type; "
                "fix: convert it to float or double first.");
  return N >= 1 && std::is_floating_point_v<T>;
}
}  // namespace detail::texpr

// softmax_inplace(a): softmax over the last axis computed in a's storage, now.
// A tensor lvalue or a view gives a view of it; an rvalue tensor is donated and returned.
template <class A>
  requires detail::texpr::operand<A>
auto softmax_inplace(A&& a) {
  using namespace detail::texpr;
  if constexpr (writable_storage<A>()) {
    using E = std::remove_pointer_t<decltype(a.data())>;
    if constexpr (softmax_ok<std::remove_cvref_t<A>::rank, E>()) {
      const auto e = a.extents();
      const auto s = a.strides();
      if (has_internal_overlap(e, s)) throw_internal_overlap(e, s);  // a broadcast view: rows would share elements
      softmax_rows(a);
      return inplace_result(std::forward<A>(a));
    }
  }
}

// softmax(a): a new tensor of a's dtype and extents (static ones kept for a
// tensor or view): a copied (an expression evaluated) into it, then softmax_inplace.
template <class A>
  requires detail::texpr::operand<A>
auto softmax(A&& a) {
  using namespace detail::texpr;
  using T = value_t<A>;
  constexpr std::size_t N = rank_v<A>;
  if constexpr (softmax_ok<N, T>()) {
    auto out = inplace::copy(std::forward<A>(a));  // a's extents, static ones kept
    inplace::softmax_inplace(out);
    return out;
  } else {
    return tensor<T, detail::rank_spec<N>>{};  // reported by softmax_ok; a result, so no follow-on error
  }
}

}  // namespace inplace

#include "inplace/detail/shadow_on.hpp"
