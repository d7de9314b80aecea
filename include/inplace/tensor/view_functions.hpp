#pragma once
// View functions on tensors and views (the graph's view ops, at run time): each
// returns an ip::tensor_view into the same storage, never a copy.
//   transpose(A)          all axes reversed (NumPy's A.T); transpose<P...>(A): axes in the order P
//   slice<B, E, S>(x)     x[B:E:S] on the first axis, Python's rules (ip::end = omitted stop)
//   reshape<E...>(x)      static extents; reshape(x, e...) at run time (contiguous x)
//   flatten(x)            rank 1 (contiguous x)
//   reverse(x)            x[::-1] on the first axis
//   reinterpret<U>(x)     the same bytes as another element type of the same size
// transpose, slice and reverse (and the views of axis_views.hpp) also take an
// expression: its view is evaluated lazily, in the loop that consumes it.
// A temporary tensor has no storage to view: passing one is a compile error.

#include "inplace/tensor/detail/tensor_fwd.hpp"
#include "inplace/tensor/detail/tensor_layout.hpp"
#include "inplace/tensor/detail/view_layout.hpp"
#include "inplace/error.hpp"
#include "inplace/extents.hpp"
#include "inplace/tensor/tensor.hpp"
#include "inplace/tensor/tensor_view.hpp"

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "inplace/detail/shadow_off.hpp"

namespace inplace {
namespace detail {

template <class X>
inline constexpr bool tx_dangling = texpr::tensor_like<X> && !std::is_lvalue_reference_v<X>;

template <class X>
void tx_require_contiguous(const X& v, const char* what) {
  if (!v.is_contiguous())
    throw shape_error(std::string("inplace: shape_error: ") + what + " needs a contiguous view; got extents " +
                      tx_shape_string(v.extents()) + " with strides " + tx_shape_string(v.strides()));
}

}  // namespace detail

#define INPLACE_VIEW_ARG(X)                                                                     \
  static_assert(!detail::tx_dangling<X>,                                                        \
                "inplace: view_of_temporary: a view of a temporary tensor would dangle; "       \
                "fix: name the tensor first (auto t = ...) and take the view of t.")

// transpose(x): the axes reversed; transpose<P...>(x): output axis k is axis P_k.
template <std::size_t... P, class X>
  requires detail::texpr::operand<X>
auto transpose(X&& x) {
  return detail::tx_apply_view(std::forward<X>(x), [](const auto& v) {
    constexpr std::size_t N = std::remove_cvref_t<decltype(v)>::rank;
    std::array<std::size_t, N> p{};
    if constexpr (sizeof...(P) == 0) {
      for (std::size_t i = 0; i < N; ++i) p[i] = N - 1 - i;
    } else {
      static_assert(ops::permute<P...>::valid(N),
                    "inplace: view_axis: ip::transpose<P...>: P is not a permutation of the axes 0 .. rank - 1; "
                    "fix: name every axis of the view exactly once.");
      p = {P...};
    }
    return detail::tx_permute(v, p);
  });
}

template <std::ptrdiff_t B, std::ptrdiff_t E = inplace::end, std::ptrdiff_t S = 1, class X>
  requires detail::texpr::operand<X>
auto slice(X&& x) {
  static_assert(S != 0 && S != PTRDIFF_MIN, "inplace: slice_step: ip::slice<B, E, S>: the step S must not be 0; fix: use a positive step "
                "to walk forward or a negative one to walk backward.");
  return detail::tx_apply_view(std::forward<X>(x), [](const auto& v) {
    static_assert(std::remove_cvref_t<decltype(v)>::rank >= 1, "inplace: operand_rank: ip::slice needs a view of rank 1 or more; "
                  "fix: slice a vector or a tensor of higher rank.");
    return detail::tx_slice_axis(v, 0, B, E, S);
  });
}

template <std::size_t... E, class X>
  requires((detail::texpr::tensor_like<X> || detail::texpr::view_like<X>) && sizeof...(E) > 0)
auto reshape(X&& x) {
  INPLACE_VIEW_ARG(X);
  static_assert(((E != dynamic) && ...), "inplace: reshape_extents: ip::reshape<E...>: every extent must be "
                "static; fix: pass run-time extents as arguments, reshape(x, e...).");
  auto v = detail::tx_view_of(x);
  using T = typename decltype(v)::element_type;
  constexpr detail::tx_extents<sizeof...(E)> e{E...};
  detail::tx_require_contiguous(v, "reshape");
  if (detail::tx_count(e) != v.size())
    throw shape_error("inplace: shape_error: reshape: cannot view extents " + detail::tx_shape_string(v.extents()) +
                      " as " + detail::tx_shape_string(e));
  return tensor_view<T, inplace::extents<E...>>(v.data(), e);
}

template <class X, std::integral... I>
  requires((detail::texpr::tensor_like<X> || detail::texpr::view_like<X>) && sizeof...(I) > 0)
auto reshape(X&& x, I... new_extents) {
  INPLACE_VIEW_ARG(X);
  auto v = detail::tx_view_of(x);
  using T = typename decltype(v)::element_type;
  const detail::tx_extents<sizeof...(I)> e{static_cast<std::size_t>(new_extents)...};
  detail::tx_require_contiguous(v, "reshape");
  std::size_t count = 0;
  if (!detail::tx_count_fits(e, sizeof(T), count) || count != v.size())
    throw shape_error("inplace: shape_error: reshape: cannot view extents " + detail::tx_shape_string(v.extents()) +
                      " as " + detail::tx_shape_string(e));
  return tensor_view<T, detail::rank_spec<sizeof...(I)>>(v.data(), e);
}

template <class X>
  requires(detail::texpr::tensor_like<X> || detail::texpr::view_like<X>)
auto flatten(X&& x) {
  INPLACE_VIEW_ARG(X);
  auto v = detail::tx_view_of(x);
  using T = typename decltype(v)::element_type;
  detail::tx_require_contiguous(v, "flatten");
  return tensor_view<T, 1>(v.data(), {v.size()});
}

template <class X>
  requires detail::texpr::operand<X>
auto reverse(X&& x) {
  return slice<-1, inplace::end, -1>(std::forward<X>(x));
}

template <class U, class X>
  requires(detail::texpr::tensor_like<X> || detail::texpr::view_like<X>)
auto reinterpret(X&& x) {
  INPLACE_VIEW_ARG(X);
  auto v = detail::tx_view_of(x);
  using T = typename decltype(v)::element_type;
  static_assert(std::is_trivially_copyable_v<U> && !std::is_reference_v<U>,
                "inplace: reinterpret_type: ip::reinterpret<U>: U must be trivially copyable; "
                "fix: reinterpret as an arithmetic or other trivially copyable type.");
  static_assert(!std::is_trivially_copyable_v<U> || sizeof(U) == sizeof(T),  // one error at a time
                "inplace: reinterpret_type: ip::reinterpret<U> keeps extents and strides, so U must have the "
                "element's size; fix: use ip::alias<U>(t, e...) for another size.");
  static_assert(!std::is_trivially_copyable_v<U> || sizeof(U) != sizeof(T) || alignof(U) <= alignof(T), "inplace: reinterpret_type: ip::reinterpret<U>: U needs more alignment than the "
                "element type has; fix: use ip::alias<U> on the owning (64-byte aligned) tensor.");
  using R = std::conditional_t<std::is_const_v<T>, const U, U>;
  return tensor_view<R, detail::rank_spec<decltype(v)::rank>>(reinterpret_cast<R*>(v.data()), v.extents(), v.strides());
}

#undef INPLACE_VIEW_ARG

}  // namespace inplace

#include "inplace/detail/shadow_on.hpp"
