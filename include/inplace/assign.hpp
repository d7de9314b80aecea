#pragma once
// Assignment of a tensor expression into a destination view: the entry point
// of every `dst = expr` (tensors, views, ip::noalias) and of the graph runtime.
//
//   inplace::detail::assign(dst, src, mode = assign_mode::checked)
//     dst:  a tensor_view<T, R> with mutable T (tensor.view(), a slice, ...)
//     src:  a tensor, a view, a run-time scalar, or an expression node built
//           with detail::texpr::make(op, operands...) / ip::apply(op, operands...)
//     mode: checked (overlap -> through a temporary) or noalias (overlap -> throw)
//
// In order, before anything is written:
//  1. src's extents must broadcast to dst's, else ip::shape_error naming both;
//  2. dst must not overlap itself (a stride-0 or interleaved view), else
//     ip::aliasing_error;
//  3. every leaf that reads dst's own elements with dst's index pattern (same
//     address, same byte strides, no broadcast) is safe and not checked further;
//     every other leaf (transposed, shifted, reversed, broadcast, reinterpreted
//     with another element size) is checked by address range against dst.
//     An overlap sends the assignment through a temporary (checked) or throws
//     ip::aliasing_error (noalias).
// Then the expression is evaluated in one fused loop nest straight into dst.

#include "inplace/aligned_allocator.hpp"
#include "inplace/detail/tensor_fwd.hpp"
#include "inplace/detail/tensor_layout.hpp"
#include "inplace/detail/texpr_kernel.hpp"
#include "inplace/detail/texpr_loop.hpp"
#include "inplace/detail/texpr_node.hpp"
#include "inplace/error.hpp"

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

namespace inplace::detail {

enum class assign_mode { checked, noalias };

namespace texpr {

template <class X, class F>
void for_each_leaf(const X& x, F&& f) {
  if constexpr (is_node<X>::value) std::apply([&](const auto&... a) { (for_each_leaf(a, f), ...); }, x.args);
  else if constexpr (view_like<X> || tensor_like<X>) f(x);
}

// Does `leaf` read the elements of d (extents e, strides s) with d's index pattern?
template <class T, std::size_t N, class Leaf>
bool same_pattern(const T* d, const tx_extents<N>& e, const tx_strides<N>& s, const Leaf& leaf) {
  using V = value_t<Leaf>;
  constexpr std::size_t M = rank_v<Leaf>;
  if constexpr (sizeof(V) != sizeof(T) || M > N) return false;
  else {
    if (static_cast<const void*>(leaf.data()) != static_cast<const void*>(d)) return false;
    const auto le = leaf.extents();
    const auto ls = leaf.strides();
    for (std::size_t k = 0; k < N; ++k) {
      if (e[k] == 1) continue;
      if (k < N - M || le[k - (N - M)] != e[k] || ls[k - (N - M)] != s[k]) return false;
    }
    return true;
  }
}

// A view whose elements do not all have distinct addresses (NumPy's internal overlap).
template <std::size_t N>
bool has_internal_overlap(const tx_extents<N>& e, const tx_strides<N>& s) {
  std::array<std::ptrdiff_t, N> step{};
  std::array<std::size_t, N> len{};
  std::size_t m = 0;
  for (std::size_t a = 0; a < N; ++a) {
    if (e[a] == 0) return false;
    if (e[a] > 1) {
      step[m] = s[a] < 0 ? -s[a] : s[a];
      len[m++] = e[a];
    }
  }
  for (std::size_t i = 1; i < m; ++i)
    for (std::size_t j = i; j > 0 && step[j - 1] > step[j]; --j) {
      std::swap(step[j - 1], step[j]);
      std::swap(len[j - 1], len[j]);
    }
  std::ptrdiff_t need = 1;
  for (std::size_t i = 0; i < m; ++i) {
    if (step[i] < need) return true;
    need = step[i] * static_cast<std::ptrdiff_t>(len[i]);
  }
  return false;
}

template <std::size_t M, std::size_t N>
[[noreturn, gnu::cold, gnu::noinline]] void throw_cannot_assign(const tx_extents<M>& se, const tx_extents<N>& e) {
  throw shape_error("inplace: shape_error: cannot assign extents " + tx_shape_string(se) +
                    " to a destination of extents " + tx_shape_string(e));
}
template <std::size_t N>
[[noreturn, gnu::cold, gnu::noinline]] void throw_internal_overlap(const tx_extents<N>& e, const tx_strides<N>& s) {
  throw aliasing_error("inplace: aliasing_error: the destination (extents " + tx_shape_string(e) + ", strides " +
                       tx_shape_string(s) + ") has internal overlap and cannot be written");
}
template <std::size_t N>
[[noreturn, gnu::cold, gnu::noinline]] void throw_noalias(const tx_extents<N>& e) {
  throw aliasing_error("inplace: aliasing_error: ip::noalias destination of extents " + tx_shape_string(e) +
                       " overlaps an operand read with another index pattern (transposed, shifted, reversed "
                       "or broadcast); drop ip::noalias to evaluate through a temporary");
}

// Every leaf contiguous with exactly the destination's extents: one flat row.
template <std::size_t N, class X>
bool all_flat(const X& x, const tx_extents<N>& e) {
  if constexpr (is_node<X>::value)
    return std::apply([&](const auto&... a) { return (all_flat(a, e) && ...); }, x.args);
  else if constexpr (view_like<X> || tensor_like<X>) {
    if constexpr (rank_v<X> != N) return false;
    else {
      const auto& xe = x.extents();
      bool same = true;
      for (std::size_t i = 0; i < N; ++i) same = same && xe[i] == e[i];
      return same && tx_is_contiguous(xe, x.strides());
    }
  } else return true;
}
template <class X>
auto flat_row(const X& x) {
  if constexpr (is_node<X>::value)
    return std::apply([&](const auto&... a) { return knode<decltype(x.op), decltype(flat_row(a))...>{x.op, {flat_row(a)...}}; },
                      x.args);
  else if constexpr (view_like<X> || tensor_like<X>) return row_cursor<value_t<X>>{x.data(), 1};
  else return x;
}

}  // namespace texpr

template <class T, auto R, class Src>
  requires texpr::operand_or_scalar<Src>
void assign(const tensor_view<T, R>& dst, Src&& src, assign_mode mode = assign_mode::checked) {
  static_assert(!std::is_const_v<T>, "inplace: assignment through a view of const elements");
  constexpr std::size_t N = rank_of<R>();
  if constexpr (texpr::scalar<Src>) {
    using fill = texpr::elementwise<texpr::copy_op, texpr::scalar_leaf<T>>;
    assign(dst, fill(texpr::copy_op{}, texpr::scalar_leaf<T>{static_cast<T>(src)}), mode);
  } else {
    using S = std::remove_cvref_t<Src>;
    constexpr std::size_t M = texpr::rank_v<S>;
    const tx_extents<N> e = dst.extents();
    const tx_strides<N> s = dst.strides();
    const auto se = texpr::shape_of(src);
    bool fits = M <= N;
    for (std::size_t i = 0; fits && i < M; ++i) fits = se[i] == 1 || se[i] == e[N - M + i];
    if (!fits) texpr::throw_cannot_assign(se, e);
    if constexpr (M <= N) {
      const bool flat = tx_is_contiguous(e, s) && texpr::all_flat(src, e);
      if (!flat && texpr::has_internal_overlap(e, s)) texpr::throw_internal_overlap(e, s);
      const auto dbytes = tx_bytes_of(dst.data(), e, s);
      bool hazard = false;
      texpr::for_each_leaf(src, [&](const auto& leaf) {
        if (hazard || texpr::same_pattern(dst.data(), e, s, leaf)) return;
        hazard = tx_bytes_of(leaf.data(), leaf.extents(), leaf.strides()).overlaps(dbytes);
      });
      if (!hazard) {
        if (flat) {  // TVM's flattening, decided without building a loop nest
          const auto n = static_cast<std::ptrdiff_t>(tx_count(e));
#if defined(INPLACE_OPENMP) && defined(_OPENMP)
          if (static_cast<std::size_t>(n) < texpr::parallel_threshold)
#endif
            return texpr::run_unit(dst.data(), texpr::flat_row(src), 0, n);
        }
        return texpr::evaluate(dst.data(), e, s, texpr::make_kernel<N>(src));
      }
      if (mode == assign_mode::noalias) texpr::throw_noalias(e);
      // Through a temporary: evaluate into fresh contiguous storage, then copy.
      aligned_allocator<T> alloc;
      const std::size_t n = tx_count(e);
      auto del = [&](T* p) { alloc.deallocate(p, n); };
      std::unique_ptr<T, decltype(del)> tmp(alloc.allocate(n), del);
      const auto ts = tx_row_major(e);
      texpr::evaluate(tmp.get(), e, ts, texpr::make_kernel<N>(src));
      texpr::evaluate(dst.data(), e, s, texpr::make_kernel<N>(tensor_view<const T, rank_spec<N>>(tmp.get(), e, ts)));
    }
  }
}

}  // namespace inplace::detail
