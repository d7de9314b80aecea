#pragma once
// The reductions of ops/reductions.hpp on tensors, views and expressions
// (an expression is evaluated first), and the body of their kernel
// (reduction_into, which ops::reduce's kernel member calls, on tensors and
// in a running graph alike):
//   ip::reduce_max<Axes...>(a), reduce_min, reduce_mean, reduce_prod,
//   reduce_any, reduce_all     over the axes listed (none: all of them),
//   (any = reduce_any; ip::all(a), called, is reduce_all over every axis)
//                              ip::keepdims among them keeps them with extent 1
//   ip::argmax<Axis>(a), argmin  the index along one axis; no axis: in the flattened array
//   ip::reduce_sum<A0, A1, ...>(a)  a sum over several axes, or kept (ip::keepdims among
//                              them; one axis or all, not kept: tensor_opaque.hpp)
// The max, min, argmax and argmin of no element are ip::shape_error (NumPy
// raises too); the mean of none is NaN, the sum 0, the product 1.

#include "inplace/error.hpp"
#include "inplace/ops/reductions.hpp"
#include "inplace/tensor/tensor.hpp"
#include "inplace/tensor/tensor_opaque.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "inplace/detail/shadow_off.hpp"

namespace inplace {
namespace detail::texpr {

// When the reduced axes are the last ones and each output's elements one run
// (the last axis alone, of any stride, or a contiguous block of trailing
// axes): out row by row, and true (layer norm's and logsumexp's mean or max
// along the last axis); otherwise false, for the general walk below.
template <class Reducer, class O, class V>
bool reduce_rows(const O& out, const V& v, const reduction_axes& r, std::size_t n_out, std::size_t per_out) {
  constexpr std::size_t N = V::rank, M = O::rank;
  using R = typename O::value_type;
  std::size_t k0 = N;  // the first of the trailing reduced axes
  while (k0 > 0 && r.reduced[k0 - 1]) --k0;
  for (std::size_t k = 0; k < k0; ++k)
    if (r.reduced[k]) return false;
  if (k0 == N) return false;  // nothing reduced
  std::ptrdiff_t step = v.stride(N - 1);
  if (k0 + 1 < N) {  // several trailing axes: one run when contiguous
    std::ptrdiff_t expect = 1;
    for (std::size_t k = N; k-- > k0;) {
      if (v.extent(k) != 1 && v.stride(k) != expect) return false;
      expect *= static_cast<std::ptrdiff_t>(v.extent(k));
    }
    step = 1;
  }
  const auto e = v.extents();
  for (std::size_t o = 0; o < n_out; ++o) {
    std::ptrdiff_t in = 0, at = 0;  // o's offsets in v (axes before k0) and in out (its axes, in order)
    std::size_t rest = o;
    for (std::size_t k = k0; k-- > 0;) {
      const std::size_t ik = rest % e[k];
      rest /= e[k];
      in += static_cast<std::ptrdiff_t>(ik) * v.stride(k);
      if (k < M) at += static_cast<std::ptrdiff_t>(ik) * out.stride(k);  // kept axes come first in out, in order
    }
    out.data()[at] = reduce_run<Reducer, R>(v.data() + in, per_out, step);
  }
  return true;
}

// out = the reduction of v by Reducer over the axes r marks; out has r's
// result extents (any strides). One walk over v in row-major order; each
// element of out accumulates the elements whose kept indices are its own.
template <class Reducer, class O, class V>
void reduction_into(const O& out, const V& v, const reduction_axes& r) {
  constexpr std::size_t N = V::rank, M = O::rank;
  using T = std::remove_const_t<typename V::value_type>;
  using R = typename O::value_type;
  const auto e = v.extents();
  std::size_t n_out = 1, per_out = 1;
  for (std::size_t k = 0; k < N; ++k) (r.reduced[k] ? per_out : n_out) *= e[k];
  // where element o of out (row-major over the kept axes) lives
  const auto out_ptr = [&](std::size_t o) {
    R* p = out.data();
    for (std::size_t k = M; k-- > 0;) {
      const std::size_t n = out.extent(k);
      p += static_cast<std::ptrdiff_t>(o % n) * out.stride(k);
      o /= n;
    }
    return p;
  };
  if (n_out == 0) return;
  if (per_out == 0) {
    if constexpr (requires { Reducer::template empty<T>(); }) {
      for (std::size_t o = 0; o < n_out; ++o) *out_ptr(o) = Reducer::template last<R>(Reducer::template empty<T>(), 0);
      return;
    } else {
      throw shape_error("inplace: shape_error: " + std::string(Reducer::name) +
                        " of an empty axis: no element to take it from (NumPy raises too)");
    }
  }
  if (reduce_rows<Reducer>(out, v, r, n_out, per_out)) return;
  std::array<std::size_t, N == 0 ? 1 : N> i{};
  const auto walk = [&](auto&& visit) {  // visit(element, output index, first of its output, index along the reduced axes)
    const std::size_t total = n_out * per_out;
    for (std::size_t c = 0; c < total; ++c) {
      std::ptrdiff_t off = 0;
      std::size_t o = 0, along = 0;
      bool first = true;
      for (std::size_t k = 0; k < N; ++k) {
        off += static_cast<std::ptrdiff_t>(i[k]) * v.stride(k);
        if (r.reduced[k]) along = along * e[k] + i[k], first = first && i[k] == 0;
        else o = o * e[k] + i[k];
      }
      visit(static_cast<T>(v.data()[off]), o, first, along);
      for (std::size_t k = N; k-- > 0;) {  // the next index: an odometer
        if (++i[k] < e[k]) break;
        i[k] = 0;
      }
    }
  };
  if constexpr (requires { Reducer::is_arg; }) {
    const auto best = std::make_unique<T[]>(n_out);  // (not std::vector<bool>'s proxies: bool operands too)
    std::vector<std::int64_t> at(n_out);
    walk([&](T x, std::size_t o, bool first, std::size_t along) {
      if (first || Reducer::better(x, best[o])) best[o] = x, at[o] = static_cast<std::int64_t>(along);
    });
    for (std::size_t o = 0; o < n_out; ++o) *out_ptr(o) = static_cast<R>(at[o]);
  } else {
    using A = typename Reducer::template acc<T>;
    const auto acc = std::make_unique<A[]>(n_out);
    walk([&](T x, std::size_t o, bool first, std::size_t) {
      acc[o] = first ? static_cast<A>(Reducer::first(x)) : static_cast<A>(Reducer::step(acc[o], x));
    });
    for (std::size_t o = 0; o < n_out; ++o) *out_ptr(o) = Reducer::template last<R>(acc[o], per_out);
  }
}

// The reduction of a by Reducer over Axes...: a new tensor.
template <class Reducer, int... Axes, class A>
auto reduction(A&& a) {
  using T = value_t<A>;
  if constexpr (ops::widens_integers<Reducer> && !std::is_same_v<ops::sum_dtype<T>, T>)  // NumPy's int64
    return reduction<Reducer, Axes...>(make(ops::cast<ops::sum_dtype<T>>{}, std::forward<A>(a)));
  else {
    constexpr std::size_t N = rank_v<A>;
    constexpr auto r = checked_axes<Reducer, N, Axes...>();
    constexpr std::size_t NR = r.keep ? N : N - r.count;
    using R = typename Reducer::template result<T>;
    const auto e = shape_of(a);
    tx_extents<NR> er{};
    for (std::size_t k = 0, o = 0; k < N; ++k)
      if (!r.reduced[k]) er[o++] = e[k];
      else if (r.keep) er[o++] = 1;
    tensor<R, rank_spec<NR>> out(tx_uninitialized, er);
    with_view(std::forward<A>(a), [&](const auto& v) { ops::reduce<Reducer, Axes...>{}.kernel(out.view(), v); });
    return out;
  }
}

}  // namespace detail::texpr

#define INPLACE_TENSOR_REDUCTION(NAME, REDUCER)                                 \
  template <int... Axes, class A>                                               \
    requires detail::texpr::operand<A>                                          \
  auto NAME(A&& a) {                                                            \
    return detail::texpr::reduction<ops::REDUCER, Axes...>(std::forward<A>(a)); \
  }
INPLACE_TENSOR_REDUCTION(reduce_max, max_reducer)
INPLACE_TENSOR_REDUCTION(reduce_min, min_reducer)
INPLACE_TENSOR_REDUCTION(reduce_mean, mean_reducer)
INPLACE_TENSOR_REDUCTION(reduce_prod, prod_reducer)
INPLACE_TENSOR_REDUCTION(reduce_any, any_reducer)
INPLACE_TENSOR_REDUCTION(reduce_all, all_reducer)
INPLACE_TENSOR_REDUCTION(any, any_reducer)
INPLACE_TENSOR_REDUCTION(argmax, arg_reducer<true>)
INPLACE_TENSOR_REDUCTION(argmin, arg_reducer<false>)
#undef INPLACE_TENSOR_REDUCTION

// reduce_sum over several axes, or with ip::keepdims (reduce_sum<ip::keepdims>:
// every axis kept); one axis or all, not kept: tensor_opaque.hpp's.
template <int A0, int... Axes, class A>
  requires(detail::texpr::operand<A> && (sizeof...(Axes) > 0 || A0 == keepdims))
auto reduce_sum(A&& a) {
  return detail::texpr::reduction<ops::sum_reducer, A0, Axes...>(std::forward<A>(a));
}

template <class X>
  requires detail::texpr::operand<X>
struct detail::all_reduction<X> {
  template <class A>
  static auto run(A&& a) { return ::inplace::reduce_all(std::forward<A>(a)); }
};

}  // namespace inplace

#include "inplace/detail/shadow_on.hpp"
