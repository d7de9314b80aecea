#pragma once
// The run-time side of the view ops: each takes a tensor_view and returns a
// view of the same elements with new extents and strides (the graph ops of
// ops/views.hpp state the same maps for the analysis). And views of
// expressions: a view of `A + B` is `view(A) + view(B)`, each leaf broadcast to
// the expression's extents first, so the view is evaluated lazily, inside the
// loop that consumes it.

#include "inplace/tensor/detail/tensor_fwd.hpp"
#include "inplace/tensor/detail/tensor_layout.hpp"
#include "inplace/tensor/detail/texpr_node.hpp"
#include "inplace/tensor/tensor_view.hpp"
#include "inplace/ops/views.hpp"
#include "inplace/error.hpp"
#include "inplace/extents.hpp"

#include <array>
#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail {

template <class T, std::size_t N>
using tx_view = tensor_view<T, rank_spec<N>>;

[[noreturn, gnu::cold, gnu::noinline]] inline void tx_view_error(const std::string& what) {
  throw shape_error("inplace: shape_error: " + what);
}

// An axis argument (negative: from the end) checked against a rank.
inline std::size_t tx_axis(std::ptrdiff_t axis, std::size_t rank, const char* what) {
  const std::size_t k = axis_of(static_cast<int>(axis), rank);
  if (k == rank || axis != static_cast<int>(axis))
    tx_view_error(std::string(what) + ": axis " + std::to_string(axis) + " is out of range for rank " +
                  std::to_string(rank));
  return k;
}

// x[b:e:s] on axis k, Python's rules.
template <class T, auto R, std::size_t N = tensor_view<T, R>::rank>
tx_view<T, N> tx_slice_axis(const tensor_view<T, R>& v, std::size_t k, std::ptrdiff_t b, std::ptrdiff_t e, std::ptrdiff_t s) {
  if (s == 0 || s == PTRDIFF_MIN) tx_view_error("slice: the step must not be 0");
  const slice_bounds r = resolve_slice(b, e, s, v.extent(k));
  auto ext = v.extents();
  auto str = v.strides();
  ext[k] = r.length;
  str[k] = v.stride(k) * s;
  return tx_view<T, N>(tx_unchecked, r.length > 0 ? v.data() + r.first * v.stride(k) : v.data(), ext, str);
}

// x[..., i, ...] on axis k: the axis dropped.
template <class T, auto R, std::size_t N = tensor_view<T, R>::rank>
tx_view<T, N - 1> tx_index_axis(const tensor_view<T, R>& v, std::size_t k, std::ptrdiff_t i) {
  const auto n = static_cast<std::ptrdiff_t>(v.extent(k));
  if (i < -n || i >= n)
    tx_view_error("index " + std::to_string(i) + " is out of range for axis " + std::to_string(k) + " of extent " +
                  std::to_string(n));
  if (i < 0) i += n;
  tx_extents<N - 1> ext{};
  tx_strides<N - 1> str{};
  for (std::size_t j = 0, o = 0; j < N; ++j)
    if (j != k) ext[o] = v.extent(j), str[o++] = v.stride(j);
  return tx_view<T, N - 1>(tx_unchecked, v.data() + i * v.stride(k), ext, str);
}

// Output axis j is input axis p[j].
template <class T, auto R, std::size_t N = tensor_view<T, R>::rank>
tx_view<T, N> tx_permute(const tensor_view<T, R>& v, const std::array<std::size_t, N>& p) {
  tx_extents<N> ext{};
  tx_strides<N> str{};
  for (std::size_t j = 0; j < N; ++j) ext[j] = v.extent(p[j]), str[j] = v.stride(p[j]);
  return tx_view<T, N>(tx_unchecked, v.data(), ext, str);
}

// A new axis of extent 1 at position k (0..N).
template <class T, auto R, std::size_t N = tensor_view<T, R>::rank>
tx_view<T, N + 1> tx_expand(const tensor_view<T, R>& v, std::size_t k) {
  tx_extents<N + 1> ext{};
  tx_strides<N + 1> str{};
  for (std::size_t j = 0, i = 0; j <= N; ++j) {
    if (j == k) ext[j] = 1, str[j] = 0;
    else ext[j] = v.extent(i), str[j] = v.stride(i), ++i;
  }
  return tx_view<T, N + 1>(tx_unchecked, v.data(), ext, str);
}

template <class T, auto R, std::size_t N = tensor_view<T, R>::rank>
tx_view<T, N - 1> tx_squeeze(const tensor_view<T, R>& v, std::size_t k) {
  if (v.extent(k) != 1)
    tx_view_error("squeeze: axis " + std::to_string(k) + " has extent " + std::to_string(v.extent(k)) + ", not 1");
  return tx_index_axis(v, k, 0);
}

// The diagonal of axes 0 and 1 as the last axis.
template <class T, auto R, std::size_t N = tensor_view<T, R>::rank>
tx_view<T, N - 1> tx_diagonal(const tensor_view<T, R>& v, std::ptrdiff_t offset) {
  const std::size_t s0 = offset < 0 ? static_cast<std::size_t>(-offset) : 0, s1 = offset > 0 ? static_cast<std::size_t>(offset) : 0;
  const std::size_t a = v.extent(0) > s0 ? v.extent(0) - s0 : 0, b = v.extent(1) > s1 ? v.extent(1) - s1 : 0;
  const std::size_t len = a < b ? a : b;
  tx_extents<N - 1> ext{};
  tx_strides<N - 1> str{};
  for (std::size_t j = 2; j < N; ++j) ext[j - 2] = v.extent(j), str[j - 2] = v.stride(j);
  ext[N - 2] = len;
  str[N - 2] = v.stride(0) + v.stride(1);
  T* p = len > 0 ? v.data() + static_cast<std::ptrdiff_t>(s0) * v.stride(0) + static_cast<std::ptrdiff_t>(s1) * v.stride(1)
                 : v.data();
  return tx_view<T, N - 1>(tx_unchecked, p, ext, str);
}

// NumPy's broadcast_to: a read-only view with extents e (stride 0 where it repeats).
template <class T, auto R, std::size_t M, std::size_t N = tensor_view<T, R>::rank>
tx_view<const T, M> tx_broadcast(const tensor_view<T, R>& v, const tx_extents<M>& e) {
  static_assert(N <= M, "inplace: view_axis: ip::broadcast_to: the view has more axes than the extents given; fix: give "
                "at least as many extents as the view has axes.");
  tx_strides<M> str{};
  for (std::size_t j = 0; j < N; ++j) {
    const std::size_t o = M - N + j;
    if (v.extent(j) == e[o]) str[o] = v.stride(j);
    else if (v.extent(j) == 1) str[o] = 0;
    else
      tx_view_error("broadcast_to: extents " + tx_shape_string(v.extents()) + " do not broadcast to " +
                    tx_shape_string(e));
  }
  return tx_view<const T, M>(tx_unchecked, v.data(), e, str);
}

}  // namespace inplace::detail

namespace inplace::detail::texpr {

// Whether an expression holds a tensor (an rvalue moved in).
template <class X>
struct holds_tensor : std::bool_constant<tensor_like<X>> {};
template <class Op, class... A>
struct holds_tensor<elementwise<Op, A...>> : std::bool_constant<(holds_tensor<A>::value || ...)> {};

// An expression seen through a view: every leaf broadcast to the extents e of
// the whole expression, then viewed by f; scalars stay as they are.
template <std::size_t N, class X, class F>
auto push_view(const X& x, const tx_extents<N>& e, const F& f) {
  if constexpr (is_node<X>::value) {
    return std::apply(
        [&](const auto&... a) {
          using node = elementwise<std::remove_cvref_t<decltype(x.op)>, decltype(push_view(a, e, f))...>;
          return node(x.op, push_view(a, e, f)...);
        },
        x.args);
  } else if constexpr (view_like<X>) {
    return f(tx_broadcast(tx_view_of(x), e));
  } else {
    return x;  // a scalar
  }
}

}  // namespace inplace::detail::texpr

namespace inplace::detail {

// Applies the view function f to x: a tensor lvalue or a view directly, an
// expression leaf by leaf (lazily).
template <class X, class F>
auto tx_apply_view(X&& x, const F& f) {
  static_assert(!(texpr::tensor_like<X> && !std::is_lvalue_reference_v<X>),
                "inplace: view_of_temporary: a view of a temporary tensor would dangle; "
                "fix: name the tensor first (auto t = ...) and take the view of t.");
  static_assert(!(texpr::node_like<X> && texpr::holds_tensor<std::remove_cvref_t<X>>::value),
                "inplace: view_of_temporary: a view of an expression that owns a temporary tensor would dangle; "
                "fix: name the tensor first (auto t = ...) and build the expression from t.");
  if constexpr (texpr::node_like<X>) return texpr::push_view(x, x.shape, f);
  else return f(tx_view_of(x));
}

}  // namespace inplace::detail

#include "inplace/detail/shadow_on.hpp"
