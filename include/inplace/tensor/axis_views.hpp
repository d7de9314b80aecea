#pragma once
// Views by axis, on tensors, views and expressions (the graph's view ops of the
// same names, at run time): each returns an ip::tensor_view into the same
// storage, or, given an expression, an expression that reads its operands
// through the view (evaluated lazily, in the loop that consumes it).
//   view(x, spec...)          NumPy's x[spec, ...]: per leading axis ip::range<B, E, S>,
//                             ip::all, ip::at<I>, ip::new_axis, or run-time
//                             ip::runtime_range{b, e, s} and integers (an index drops its axis)
//   row<I>(A), row(A, i)      Eigen's row(i): A[i]
//   col<J>(A), col(A, j)      Eigen's col(j): A[:, j]
//   block<I, J, P, Q>(A), block(A, i, j, p, q)   Eigen's block(i, j, p, q): A[i:i+p, j:j+q]
//   swap_axes<A, B>(x)        NumPy's swapaxes
//   expand_dims<A>(x)         a new axis of extent 1 before axis A
//   squeeze<A>(x)             axis A, of extent 1, removed (ip::shape_error otherwise)
//   diagonal<K = 0>(A)        A[i, i + K] over axes 0 and 1, as the last axis
//   broadcast_to<E...>(x), broadcast_to(x, e...)   NumPy's broadcast_to: a read-only view
//   dynamic_slice<Axis, Size>(x, start)   x[start:start + Size] on axis Axis, start
//                             a run-time integer in 0 .. extent - Size (else ip::shape_error)

#include "inplace/tensor/detail/tensor_fwd.hpp"
#include "inplace/tensor/detail/view_layout.hpp"
#include "inplace/ops/views.hpp"
#include "inplace/extents.hpp"

#include <array>
#include <concepts>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "inplace/detail/shadow_off.hpp"

namespace inplace {
namespace detail {

template <class S>
concept view_spec = static_view_spec<S> || std::same_as<S, runtime_range> || std::integral<S>;
template <class S>
inline constexpr std::size_t spec_axes = std::same_as<S, new_axis_t> ? 0 : 1;  // input axes a spec consumes

template <class V>
auto tx_view_specs(const V& v, std::size_t) {
  return v;
}
template <class V, class S, class... R>
auto tx_view_specs(const V& v, std::size_t k, const S& s, const R&... r) {
  if constexpr (std::same_as<S, new_axis_t>) return tx_view_specs(tx_expand(v, k), k + 1, r...);
  else if constexpr (is_at_spec<S>) return tx_view_specs(tx_index_axis(v, k, S::index), k, r...);
  else if constexpr (std::integral<S>) return tx_view_specs(tx_index_axis(v, k, static_cast<std::ptrdiff_t>(s)), k, r...);
  else if constexpr (is_range_spec<S>) return tx_view_specs(tx_slice_axis(v, k, S::begin, S::stop, S::step), k + 1, r...);
  else return tx_view_specs(tx_slice_axis(v, k, s.begin, s.stop, s.step), k + 1, r...);
}

}  // namespace detail

template <class X, detail::view_spec... S>
  requires detail::texpr::operand<X>
auto view(X&& x, S... s) {
  // checked here, before the view is built: one error at the user's call
  constexpr bool fits = (std::size_t{0} + ... + detail::spec_axes<S>) <= detail::texpr::rank_v<X>;
  static_assert(fits, "inplace: view_axis: ip::view: more ranges and indices than the view has axes; fix: give at most one "
                      "ip::range, ip::at or index per axis (ip::new_axis takes none).");
  if constexpr (fits)
    return detail::tx_apply_view(std::forward<X>(x), [=](const auto& v) { return detail::tx_view_specs(v, 0, s...); });
  else
    return 0;
}

template <std::ptrdiff_t I, class X>
  requires detail::texpr::operand<X>
auto row(X&& x) { return view(std::forward<X>(x), at<I>); }
template <class X>
  requires detail::texpr::operand<X>
auto row(X&& x, std::ptrdiff_t i) { return view(std::forward<X>(x), i); }
template <std::ptrdiff_t J, class X>
  requires detail::texpr::operand<X>
auto col(X&& x) { return view(std::forward<X>(x), all, at<J>); }
template <class X>
  requires detail::texpr::operand<X>
auto col(X&& x, std::ptrdiff_t j) { return view(std::forward<X>(x), all, j); }
template <std::ptrdiff_t I, std::ptrdiff_t J, std::ptrdiff_t P, std::ptrdiff_t Q, class X>
  requires detail::texpr::operand<X>
auto block(X&& x) { return view(std::forward<X>(x), range<I, I + P>, range<J, J + Q>); }
template <class X>
  requires detail::texpr::operand<X>
auto block(X&& x, std::ptrdiff_t i, std::ptrdiff_t j, std::ptrdiff_t p, std::ptrdiff_t q) {
  return view(std::forward<X>(x), runtime_range{i, i + p, 1}, runtime_range{j, j + q, 1});
}

template <int A, int B, class X>
  requires detail::texpr::operand<X>
auto swap_axes(X&& x) {
  return detail::tx_apply_view(std::forward<X>(x), [](const auto& v) {
    constexpr std::size_t N = std::remove_cvref_t<decltype(v)>::rank;
    constexpr std::size_t a = detail::axis_of(A, N), b = detail::axis_of(B, N);
    static_assert(a < N && b < N, "inplace: view_axis: ip::swap_axes<A, B>: an axis is out of range for the view's rank; fix: use axes "
                  "in -rank .. rank - 1.");
    std::array<std::size_t, N> p{};
    for (std::size_t k = 0; k < N; ++k) p[k] = k == a ? b : k == b ? a : k;
    return detail::tx_permute(v, p);
  });
}

template <int Axis, class X>
  requires detail::texpr::operand<X>
auto expand_dims(X&& x) {
  return detail::tx_apply_view(std::forward<X>(x), [](const auto& v) {
    constexpr std::size_t N = std::remove_cvref_t<decltype(v)>::rank;
    constexpr std::size_t k = detail::axis_of(Axis, N + 1);
    static_assert(k <= N && N < max_rank, "inplace: view_axis: ip::expand_dims<Axis>: the axis is out of range (or the view has 8 axes); fix: use "
                  "an axis in -(rank + 1) .. rank.");
    return detail::tx_expand(v, k);
  });
}

template <int Axis, class X>
  requires detail::texpr::operand<X>
auto squeeze(X&& x) {
  return detail::tx_apply_view(std::forward<X>(x), [](const auto& v) {
    constexpr std::size_t N = std::remove_cvref_t<decltype(v)>::rank;
    constexpr std::size_t k = detail::axis_of(Axis, N);
    static_assert(k < N, "inplace: view_axis: ip::squeeze<Axis>: the axis is out of range for the view's rank; fix: use an axis "
                  "in -rank .. rank - 1.");
    return detail::tx_squeeze(v, k);
  });
}

template <std::ptrdiff_t Offset = 0, class X>
  requires detail::texpr::operand<X>
auto diagonal(X&& x) {
  return detail::tx_apply_view(std::forward<X>(x), [](const auto& v) {
    static_assert(std::remove_cvref_t<decltype(v)>::rank >= 2, "inplace: view_axis: ip::diagonal: the view has fewer than two axes; fix: take the diagonal of a "
                  "view of rank 2 or more.");
    return detail::tx_diagonal(v, Offset);
  });
}

template <std::size_t... E, class X>
  requires(detail::texpr::operand<X> && sizeof...(E) > 0)
auto broadcast_to(X&& x) {
  static_assert(((E != dynamic) && ...), "inplace: view_extents: ip::broadcast_to<E...>: every extent must be static; fix: pass run-time "
                "extents as ip::broadcast_to(x, e...).");
  constexpr bool fits = sizeof...(E) >= detail::texpr::rank_v<X>;
  static_assert(!((E != dynamic) && ...) || fits, "inplace: view_axis: ip::broadcast_to: the view has more axes than the extents given; fix: give "
                "at least as many extents as the view has axes.");
  if constexpr (((E != dynamic) && ...) && fits)
    return detail::tx_apply_view(std::forward<X>(x), [](const auto& v) {
      return detail::tx_broadcast(v, detail::tx_extents<sizeof...(E)>{E...});
    });
  else
    return 0;
}
template <class X, std::integral... I>
  requires(detail::texpr::operand<X> && sizeof...(I) > 0)
auto broadcast_to(X&& x, I... e) {
  constexpr bool fits = sizeof...(I) >= detail::texpr::rank_v<X>;
  static_assert(fits, "inplace: view_axis: ip::broadcast_to: the view has more axes than the extents given; fix: give "
                "at least as many extents as the view has axes.");
  if constexpr (fits) {
    const detail::tx_extents<sizeof...(I)> ext{static_cast<std::size_t>(e)...};
    return detail::tx_apply_view(std::forward<X>(x), [ext](const auto& v) { return detail::tx_broadcast(v, ext); });
  } else {
    return 0;
  }
}

template <int Axis, std::size_t Size, class X, std::integral I>
  requires detail::texpr::operand<X>
auto dynamic_slice(X&& x, I start) {
  return detail::tx_apply_view(std::forward<X>(x), [start](const auto& v) {
    constexpr std::size_t N = std::remove_cvref_t<decltype(v)>::rank;
    constexpr std::size_t k = detail::axis_of(Axis, N);
    static_assert(k < N, "inplace: view_axis: ip::dynamic_slice<Axis, Size>: the axis is out of range for the view's rank; "
                  "fix: use an axis in -rank .. rank - 1.");
    const std::size_t n = v.extent(k);
    if (!detail::start_fits(static_cast<long long>(start), Size, n))
      detail::tx_view_error("dynamic_slice: start " + std::to_string(start) + " is out of range for " +
                            std::to_string(Size) + " element(s) of axis " + std::to_string(k) + " of extent " +
                            std::to_string(n) + " (0 <= start <= extent - size; nothing is clamped)");
    const auto b = static_cast<std::ptrdiff_t>(start);
    return detail::tx_slice_axis(v, k, b, b + static_cast<std::ptrdiff_t>(Size), 1);
  });
}

}  // namespace inplace

#include "inplace/detail/shadow_on.hpp"
