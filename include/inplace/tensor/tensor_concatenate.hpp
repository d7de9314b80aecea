#pragma once
// NumPy's concatenate and stack on tensors, views and expressions:
//   ip::concatenate<Axis>(a, b, ...)   one new tensor, the operands one after
//                                      another along Axis (-rank .. rank - 1)
//   ip::stack<Axis>(a, b, ...)         the same along a new axis Axis (-rank - 1 .. rank)
// The result has the operands' common dtype (NumPy's promotion) and run-time
// extents. Each operand is assigned straight into its slab of the result: an
// expression operand is evaluated there, with no temporary of its own. Extents
// that differ off Axis are ip::shape_error before anything is allocated.
// (In graphs, the same names are graph/concatenate.hpp's.)

#include "inplace/error.hpp"
#include "inplace/ops/detail/dtype_rule.hpp"
#include "inplace/ops/views.hpp"
#include "inplace/tensor/assign.hpp"
#include "inplace/tensor/axis_views.hpp"
#include "inplace/tensor/tensor.hpp"

#include <array>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "inplace/detail/shadow_off.hpp"

namespace inplace {
namespace detail::texpr {

template <int Axis, class... A>
auto concatenation(A&&... a) {
  using T = concrete_dtype_t<common_dtype_t<value_t<A>...>>;
  constexpr std::size_t N = rank_v<std::tuple_element_t<0, std::tuple<A...>>>;
  constexpr std::size_t k = axis_of(Axis, N);
  const std::array<tx_extents<N>, sizeof...(A)> e{shape_of(a)...};
  tx_extents<N> r = e[0];
  r[k] = 0;
  for (std::size_t j = 0; j < e.size(); ++j) {
    for (std::size_t i = 0; i < N; ++i)
      if (i != k && e[j][i] != e[0][i])
        throw shape_error("inplace: shape_error: concatenate along axis " + std::to_string(k) + ": operand " +
                          std::to_string(j) + " has extents " + tx_shape_string(e[j]) + ", operand 0 " +
                          tx_shape_string(e[0]) + "; they must be equal on every other axis");
    r[k] += e[j][k];
  }
  tensor<T, rank_spec<N>> out(tx_uninitialized, r);
  std::ptrdiff_t offset = 0;
  std::size_t j = 0;
  const auto place = [&](auto&& x) {
    const auto n = static_cast<std::ptrdiff_t>(e[j++][k]);
    // the slab is fresh memory: no operand can reach it
    assign(tx_slice_axis(out.view(), k, offset, offset + n, 1), std::forward<decltype(x)>(x), assign_mode::fresh);
    offset += n;
  };
  (place(std::forward<A>(a)), ...);
  return out;
}

// stack: each operand assigned straight into its index along the new axis k
// (no view of an operand: a temporary tensor or an expression owning one,
// np.stack([a.sum(1), a.max(1)]), is read before the call returns).
template <int Axis, class... A>
auto stacking(A&&... a) {
  using T = concrete_dtype_t<common_dtype_t<value_t<A>...>>;
  constexpr std::size_t N = rank_v<std::tuple_element_t<0, std::tuple<A...>>>;
  constexpr std::size_t k = axis_of(Axis, N + 1);
  const std::array<tx_extents<N>, sizeof...(A)> e{shape_of(a)...};
  for (std::size_t j = 0; j < e.size(); ++j)
    if (e[j] != e[0])
      throw shape_error("inplace: shape_error: stack: operand " + std::to_string(j) + " has extents " +
                        tx_shape_string(e[j]) + ", operand 0 " + tx_shape_string(e[0]) + "; they must be equal");
  tx_extents<N + 1> r{};
  for (std::size_t i = 0; i < N + 1; ++i) r[i] = i < k ? e[0][i] : i == k ? sizeof...(A) : e[0][i - 1];
  tensor<T, rank_spec<N + 1>> out(tx_uninitialized, r);
  std::ptrdiff_t j = 0;
  // the slab is fresh memory: no operand can reach it
  ((assign(tx_index_axis(out.view(), k, j++), std::forward<A>(a), assign_mode::fresh)), ...);
  return out;
}

}  // namespace detail::texpr

template <int Axis, class... A>
  requires(sizeof...(A) > 0 && (detail::texpr::operand<A> && ...))
auto concatenate(A&&... a) {
  constexpr std::size_t N = detail::texpr::rank_v<std::tuple_element_t<0, std::tuple<A...>>>;
  constexpr bool ok = ((detail::texpr::rank_v<A> == N) && ...) && N > 0 && detail::axis_of(Axis, N) < N;
  static_assert(ok, "inplace: concat_shapes: ip::concatenate<Axis> and ip::stack<Axis> take operands of one rank "
                    "(at least 1) and Axis in -rank .. rank - 1; fix: give the operands one rank, or name an axis "
                    "they have.");
  if constexpr (ok) return detail::texpr::concatenation<Axis>(std::forward<A>(a)...);
  else return 0;
}

template <int Axis, class... A>
  requires(sizeof...(A) > 0 && (detail::texpr::operand<A> && ...))
auto stack(A&&... a) {
  constexpr std::size_t N = detail::texpr::rank_v<std::tuple_element_t<0, std::tuple<A...>>>;
  constexpr bool ok = ((detail::texpr::rank_v<A> == N) && ...) && detail::axis_of(Axis, N + 1) <= N;
  static_assert(ok, "inplace: concat_shapes: ip::stack<Axis> takes operands of one rank and Axis in "
                    "-rank - 1 .. rank; fix: give the operands one rank, or name an axis of the result.");
  if constexpr (ok) return detail::texpr::stacking<Axis>(std::forward<A>(a)...);
  else return 0;
}

}  // namespace inplace

#include "inplace/detail/shadow_on.hpp"
