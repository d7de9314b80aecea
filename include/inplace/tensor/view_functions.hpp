#pragma once
// View functions on tensors and views (the graph's view ops, at run time): each
// returns an ip::tensor_view into the same storage, never a copy.
//   transpose(A)          all axes reversed (NumPy's A.T)
//   slice<B, E, S>(x)     x[B:E:S] on the first axis, Python's rules (ip::end = omitted stop)
//   reshape<E...>(x)      static extents; reshape(x, e...) at run time (contiguous x)
//   flatten(x)            rank 1 (contiguous x)
//   reverse(x)            x[::-1] on the first axis
//   reinterpret<U>(x)     the same bytes as another element type of the same size
// A temporary tensor has no storage to view: passing one is a compile error.

#include "inplace/tensor/detail/tensor_fwd.hpp"
#include "inplace/tensor/detail/tensor_layout.hpp"
#include "inplace/error.hpp"
#include "inplace/extents.hpp"
#include "inplace/tensor/tensor.hpp"
#include "inplace/tensor/tensor_view.hpp"

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

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

template <class X>
  requires(detail::texpr::tensor_like<X> || detail::texpr::view_like<X>)
auto transpose(X&& x) {
  INPLACE_VIEW_ARG(X);
  auto v = detail::tx_view_of(x);
  constexpr std::size_t N = decltype(v)::rank;
  typename decltype(v)::extents_type e;
  typename decltype(v)::strides_type s;
  for (std::size_t i = 0; i < N; ++i) {
    e[i] = v.extent(N - 1 - i);
    s[i] = v.stride(N - 1 - i);
  }
  return decltype(v)(v.data(), e, s);
}

template <std::ptrdiff_t B, std::ptrdiff_t E = inplace::end, std::ptrdiff_t S = 1, class X>
  requires(detail::texpr::tensor_like<X> || detail::texpr::view_like<X>)
auto slice(X&& x) {
  INPLACE_VIEW_ARG(X);
  static_assert(S != 0 && S != PTRDIFF_MIN, "inplace: slice_step: ip::slice<B, E, S>: the step S must not be 0; fix: use a positive step "
                "to walk forward or a negative one to walk backward.");
  auto v = detail::tx_view_of(x);
  static_assert(decltype(v)::rank >= 1, "inplace: operand_rank: ip::slice needs a view of rank 1 or more; "
                "fix: slice a vector or a tensor of higher rank.");
  const auto n = static_cast<std::ptrdiff_t>(v.extent(0));
  std::ptrdiff_t b, len;
  if constexpr (S > 0) {  // Python: clamp to [0, n], stop omitted = n
    b = B < 0 ? std::max<std::ptrdiff_t>(B + n, 0) : std::min<std::ptrdiff_t>(B, n);
    const std::ptrdiff_t e = E == inplace::end ? n : E < 0 ? std::max<std::ptrdiff_t>(E + n, 0) : std::min<std::ptrdiff_t>(E, n);
    len = e > b ? (e - b - 1) / S + 1 : 0;  // (not (e - b + S - 1) / S: it overflows for a huge S)
  } else {  // Python: clamp to [-1, n - 1], stop omitted = before the first element
    b = B < 0 ? std::max<std::ptrdiff_t>(B + n, -1) : std::min<std::ptrdiff_t>(B, n - 1);
    const std::ptrdiff_t e = E == inplace::end ? -1 : E < 0 ? std::max<std::ptrdiff_t>(E + n, -1) : std::min<std::ptrdiff_t>(E, n - 1);
    len = b > e ? (b - e - 1) / -S + 1 : 0;
  }
  auto ext = v.extents();
  auto str = v.strides();
  ext[0] = static_cast<std::size_t>(len);
  str[0] = v.stride(0) * S;
  return decltype(v)(len > 0 ? v.data() + b * v.stride(0) : v.data(), ext, str);
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
  requires(detail::texpr::tensor_like<X> || detail::texpr::view_like<X>)
auto reverse(X&& x) {
  INPLACE_VIEW_ARG(X);
  return slice<-1, inplace::end, -1>(detail::tx_view_of(x));
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
