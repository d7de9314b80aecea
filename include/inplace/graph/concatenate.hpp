#pragma once
// ip::concatenate<Axis>(a, b, ...) and ip::stack<Axis>(a, b, ...), NumPy's,
// in graphs: a fresh array of the result's extents, then each operand set into
// its region along Axis (ip::set). The sets run in the fresh array's storage
// (an intermediate that nothing else reads), and an operand computed by an
// elementwise loop that only its set reads is computed straight into its
// region: concatenating computed values copies nothing, as oneDNN's and XLA's
// in-place concat (ip::plan shows one allocation, the result). The operands
// need static extents, equal but along Axis; the result has their common dtype.

#include "inplace/graph/constants.hpp"
#include "inplace/graph/graph_ops.hpp"
#include "inplace/ops/update.hpp"

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "inplace/detail/shadow_off.hpp"

namespace inplace {
namespace detail {

// Whether operands of shapes s... concatenate along axis Axis: one rank, static
// extents, equal but along the axis.
template <int Axis, std::size_t N>
constexpr bool concatenable(const std::array<shape, N>& s) {
  if (N == 0) return false;
  const std::size_t rank = s[0].rank, k = axis_of(Axis, rank);
  if (k == rank) return false;
  for (const shape& x : s) {
    if (x.rank != rank) return false;
    for (std::size_t i = 0; i < rank; ++i)
      if (x.extent[i] == dynamic || (i != k && x.extent[i] != s[0].extent[i])) return false;
  }
  return true;
}

template <std::size_t K, std::ptrdiff_t Offset, class Acc>
constexpr auto set_along(Acc acc) { return acc; }
template <std::size_t K, std::ptrdiff_t Offset, class Acc, class X, class... Rest>
constexpr auto set_along(Acc acc, X x, Rest... rest) {
  constexpr auto n = static_cast<std::ptrdiff_t>(X::value_shape.extent[K]);
  const auto next = ::inplace::set(::inplace::apply(ops::slice_axis<static_cast<int>(K), Offset, Offset + n, 1>{}, acc), x);
  return set_along<K, Offset + n>(next, rest...);
}
template <class T, std::size_t... E>
constexpr auto fresh(std::integer_sequence<std::size_t, E...>) { return out<node<ops::fresh_array<T, E...>>, 0>{}; }

}  // namespace detail

template <int Axis, detail::symbolic... X>
constexpr auto concatenate(X... x) {
  constexpr std::array<shape, sizeof...(X)> s{std::remove_cvref_t<X>::value_shape...};
  constexpr bool ok = detail::concatenable<Axis>(s);
  static_assert(ok, "inplace: concat_shapes: ip::concatenate<Axis> and ip::stack<Axis> take operands of one rank and "
                    "static extents, equal on every axis but Axis (Axis in -rank .. rank - 1); fix: give the "
                    "operands static extents that agree, or concatenate along the axis where they differ.");
  if constexpr (ok) {
    constexpr std::size_t rank = s[0].rank, k = detail::axis_of(Axis, rank);
    constexpr auto extents = [&] {
      std::array<std::size_t, max_rank> e{};
      for (std::size_t i = 0; i < rank; ++i) e[i] = s[0].extent[i];
      e[k] = 0;
      for (const shape& y : s) e[k] += y.extent[k];
      return e;
    }();
    using T = detail::concrete_dtype_t<detail::common_dtype_t<typename std::remove_cvref_t<X>::dtype...>>;
    const auto seq = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return std::integer_sequence<std::size_t, extents[I]...>{};
    }(std::make_index_sequence<rank>{});
    return detail::set_along<k, 0>(detail::fresh<T>(seq), x...);
  } else {
    return (x, ...);  // (reported above: one error)
  }
}

template <int Axis, detail::symbolic... X>
constexpr auto stack(X... x) {
  return ::inplace::concatenate<Axis>(::inplace::expand_dims<Axis>(x)...);
}

}  // namespace inplace

#include "inplace/detail/shadow_on.hpp"
