#pragma once
// The reductions of ops/reductions.hpp as graph functions: reduce_max,
// reduce_min, reduce_mean, reduce_prod, any, all, argmax, argmin, and
// reduce_sum over several axes or with ip::keepdims.

#include "inplace/graph/graph_ops.hpp"
#include "inplace/ops/reductions.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "inplace/detail/shadow_off.hpp"

namespace inplace {

namespace detail {
template <class Reducer, int... Axes, class X>
constexpr auto reduction(X x) {
  (void)checked_axes<Reducer, std::remove_cvref_t<X>::value_shape.rank, Axes...>();
  using T = typename X::dtype;
  if constexpr (ops::widens_integers<Reducer> && !std::is_same_v<ops::sum_dtype<T>, T>)
    return ::inplace::apply(ops::reduce<Reducer, Axes...>{}, cast<ops::sum_dtype<T>>(x));  // NumPy's int64
  else return ::inplace::apply(ops::reduce<Reducer, Axes...>{}, x);
}
}  // namespace detail

// x.max(axis), x.min(axis), x.mean(axis), x.prod(axis), x.any(axis), x.all(axis)
// and argmax/argmin, in graphs. NumPy's any is ip::any (or reduce_any), and
// all is ip::reduce_all: ip::all is the slice x[:], and called, ip::all(x), the
// reduction over every axis. (The tensor functions of these names are in
// tensor/tensor_reductions.hpp.)
#define INPLACE_REDUCTION(NAME, REDUCER)                                   \
  template <int... Axes, detail::symbolic X>                               \
  constexpr auto NAME(X x) {                                               \
    return detail::reduction<ops::REDUCER, Axes...>(x);                    \
  }
INPLACE_REDUCTION(reduce_max, max_reducer)
INPLACE_REDUCTION(reduce_min, min_reducer)
INPLACE_REDUCTION(reduce_mean, mean_reducer)
INPLACE_REDUCTION(reduce_prod, prod_reducer)
INPLACE_REDUCTION(reduce_any, any_reducer)
INPLACE_REDUCTION(reduce_all, all_reducer)
INPLACE_REDUCTION(any, any_reducer)
INPLACE_REDUCTION(argmax, arg_reducer<true>)
INPLACE_REDUCTION(argmin, arg_reducer<false>)
#undef INPLACE_REDUCTION

// reduce_sum over several axes, or with ip::keepdims (every axis kept:
// reduce_sum<ip::keepdims>), as the reductions above; one axis or all, not
// kept: graph_ops.hpp's.
template <int A0, int... Axes, detail::symbolic X>
  requires(sizeof...(Axes) > 0 || A0 == keepdims)
constexpr auto reduce_sum(X x) {
  return detail::reduction<ops::sum_reducer, A0, Axes...>(x);
}

template <detail::symbolic X>
struct detail::all_reduction<X> {
  static constexpr auto run(X x) { return ::inplace::reduce_all(x); }
};

}  // namespace inplace

#include "inplace/detail/shadow_on.hpp"
