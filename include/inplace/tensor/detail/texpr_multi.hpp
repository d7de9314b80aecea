#pragma once
// One loop, several results: evaluates expressions e0, e1, ... of the same
// extents into destinations d0, d1, ... For every element (every SIMD batch),
// all values are computed before any is stored, so an expression may read,
// with its destination's index pattern, the old elements of a destination
// that another result overwrites in the same loop (the graph runtime's fused
// loops rely on it; the analysis has proved every other read harmless).
// Contiguous destinations and operands of the same extents run as one flat
// loop (SIMD when every result has one element type); others as rows.

#include "inplace/tensor/detail/tensor_layout.hpp"
#include "inplace/tensor/detail/texpr_kernel.hpp"
#include "inplace/tensor/detail/texpr_node.hpp"
#include "inplace/tensor/assign.hpp"

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace inplace::detail::texpr {

template <class T, std::size_t N>
struct multi_dst {
  T* p;
  tx_strides<N> s;
};

template <class... T>
inline constexpr bool same_types = sizeof...(T) == 0 || (std::is_same_v<std::tuple_element_t<0, std::tuple<T...>>, T> && ...);

// d_k[i] = rows_k[i] for i in [0, n): rows of unit stride. Reads tagged alike
// (same_read) share one pointer across the results too (x + y and x - y read x once).
template <class... T, class... K, std::size_t... I>
void run_multi_row(const std::tuple<T*...>& d, const std::tuple<K...>& rows, std::ptrdiff_t n, std::index_sequence<I...>) {
  const std::tuple<K...> k{shared_row(std::get<I>(rows), rows, 0)...};
  std::ptrdiff_t i = 0;
#if INPLACE_HAS_XSIMD
  if constexpr (same_types<T...>) {
    using V = std::tuple_element_t<0, std::tuple<T...>>;
    if constexpr (simd_type<V> && (simd_kernel<K, V>() && ...)) {
      using B = xsimd::batch<V>;
      constexpr auto W = static_cast<std::ptrdiff_t>(B::size);
      for (; i + W <= n; i += W) {
        const std::tuple<decltype(load<B>(std::get<I>(k), i))...> v{load<B>(std::get<I>(k), i)...};
        (std::get<I>(v).store_unaligned(std::get<I>(d) + i), ...);
      }
    }
  }
#endif
  for (; i < n; ++i) {
    const std::tuple<decltype(at<true>(std::get<I>(k), i))...> v{at<true>(std::get<I>(k), i)...};
    ((std::get<I>(d)[i] = convert<T>(std::get<I>(v))), ...);
  }
}

template <std::size_t N, class... T, class... S, std::size_t... I>
void assign_multi_impl(const tx_extents<N>& e, const std::tuple<tensor_view<T, rank_spec<N>>...>& d,
                       const std::tuple<S...>& src, std::index_sequence<I...> seq) {
  const std::size_t n = tx_count(e);
  if (n == 0) return;
  // one flat loop when every destination and operand is contiguous with these extents
  bool flat = (std::get<I>(d).is_contiguous() && ...);
  std::array<flat_scan, sizeof...(I)> scans{};
  for (auto& f : scans) f = flat_scan{nullptr, nullptr, 0, 0};
  const std::tuple<decltype(flat_row(std::get<I>(src), e, scans[I]))...> rows{flat_row(std::get<I>(src), e, scans[I])...};
  flat = flat && (scans[I].flat && ...);
  if (flat) return run_multi_row(std::tuple<T*...>{std::get<I>(d).data()...}, rows, static_cast<std::ptrdiff_t>(n), seq);
  // rows over the last axis, element by element
  constexpr std::size_t A = N > 0 ? N : 1;
  const std::tuple<decltype(make_kernel<A>(std::get<I>(src)))...> k{make_kernel<A>(std::get<I>(src))...};
  const std::size_t inner = N > 0 ? N - 1 : 0;
  const std::size_t len = N > 0 ? e[inner] : 1;
  std::array<std::ptrdiff_t, A> idx{};
  for (std::size_t r = 0, rows_n = n / len; r < rows_n; ++r) {
    const std::tuple<decltype(row_of(std::get<I>(k), idx.data(), inner, inner))...> unshared{
        row_of(std::get<I>(k), idx.data(), inner, inner)...};
    const decltype(unshared) rk{shared_row(std::get<I>(unshared), unshared, 0)...};
    std::array<std::ptrdiff_t, sizeof...(I)> base{};
    ((base[I] = [&] {
       std::ptrdiff_t off = 0;
       for (std::size_t a = 0; a < inner; ++a) off += idx[a] * std::get<I>(d).stride(a);
       return off;
     }()),
     ...);
    for (std::size_t i = 0; i < len; ++i) {
      const auto ii = static_cast<std::ptrdiff_t>(i);
      const std::tuple<decltype(at<false>(std::get<I>(rk), ii))...> v{at<false>(std::get<I>(rk), ii)...};
      ((std::get<I>(d).data()[base[I] + (N > 0 ? ii * std::get<I>(d).stride(inner) : 0)] = convert<T>(std::get<I>(v))),
       ...);
    }
    for (std::size_t a = inner; a-- > 0;) {
      if (++idx[a] < static_cast<std::ptrdiff_t>(e[a])) break;
      idx[a] = 0;
    }
  }
}

// d_k = src_k for every k, in one loop. Every destination has extents e; every
// source broadcasts to e (ip::shape_error otherwise, before anything is written).
template <std::size_t N, class D, class X>
void check_fits(const tx_extents<N>& e, const D& dst, const X& src) {
  const auto se = shape_of(src);
  constexpr std::size_t M = rank_v<X>;
  bool fits = M <= N && dst.extents() == e;
  for (std::size_t i = 0; fits && i < M; ++i) fits = se[i] == 1 || se[i] == e[N - M + i];
  if (fits) return;
  if (dst.extents() != e) throw_loop_extents(e, dst.extents());
  throw_cannot_assign(se, dst.extents());
}
template <std::size_t N, class... T, class... S>
void assign_multi(const std::tuple<tensor_view<T, rank_spec<N>>...>& d, const std::tuple<S...>& src) {
  static_assert(sizeof...(T) == sizeof...(S) && sizeof...(S) > 0);
  const tx_extents<N> e = std::get<0>(d).extents();
  [&]<std::size_t... I>(std::index_sequence<I...> seq) {
    (check_fits(e, std::get<I>(d), std::get<I>(src)), ...);
    assign_multi_impl(e, d, src, seq);
  }(std::index_sequence_for<S...>{});
}

}  // namespace inplace::detail::texpr
