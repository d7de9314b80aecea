#pragma once
// Arrays that a graph makes itself, NumPy's zeros, ones, full and arange:
//   ip::zeros<T, E...>(), ip::ones<T, E...>(), ip::full<T, E...>(c)   (zeros, ones
//                               and arange also without the call's parentheses)
//       a read-only view of one constant of dtype T, broadcast to extents E...
//       (c: a compile-time constant, 2.5_c): no storage, and no loop of their
//       own; a call allocates one only when something needs its elements in
//       memory (an output, an opaque op's operand)
//   ip::arange<T, Stop>(), ip::arange<T, Start, Stop, Step = 1>()
//       Start, Start + Step, ... before Stop, of dtype T: a node with no
//       input, whose kernel writes its elements (its own buffer)

#include "inplace/graph/graph_ops.hpp"
#include "inplace/graph/symbols.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>
#include <string_view>
#include <type_traits>

#include "inplace/detail/shadow_off.hpp"

namespace inplace {
namespace detail {

// A constant of dtype T (not weak): the value of constant leaf C, as a T
// (ip::full<std::uint8_t, 2>(-1_c) is 255, as NumPy 1's np.full(2, -1, np.uint8)).
template <class T, class C>
struct typed_constant : leaf_base<typed_constant<T, C>> {
  using dtype = T;
  static constexpr entry_kind kind = entry_kind::constant;
  static constexpr bool indestructible = true;
  static constexpr shape value_shape{};
  // (a weak float as ip::cast<T> and NumPy convert it: a double first, then beyond
  // an integer T's range its minimum or maximum)
  static constexpr long double value = static_cast<long double>(
      std::is_same_v<typename C::dtype, weak_float> ? convert<T>(static_cast<double>(C::value))
                                                    : constant_as<T>(C::value));
  static constexpr std::string_view name = C::name;
  static constexpr entry_desc desc =
      leaf_description(kind, indestructible, name, value_shape, pretty_type_name<typed_constant>());
};

constexpr std::size_t arange_length(std::ptrdiff_t start, std::ptrdiff_t stop, std::ptrdiff_t step) {
  if (step == 0) return 0;  // (reported by ip::arange)
  if (step > 0) return stop > start ? static_cast<std::size_t>((stop - start - 1) / step + 1) : 0;
  return start > stop ? static_cast<std::size_t>((start - stop - 1) / -step + 1) : 0;
}

}  // namespace detail

namespace ops {
// Start, Start + Step, ... before Stop (NumPy's arange of integers), as T.
template <class T, std::ptrdiff_t Start, std::ptrdiff_t Stop, std::ptrdiff_t Step>
struct arange {
  static constexpr std::string_view name = "arange";
  template <std::size_t, class...>
  using output_dtype = T;
  static constexpr shape output_shape(std::size_t, const std::array<shape, 0>&) {
    shape s{1, {}};
    s.extent[0] = detail::arange_length(Start, Stop, Step);
    return s;
  }
  template <class O>
  void kernel(const O& out) const {
    for (std::size_t i = 0; i < out.extent(0); ++i)
      out(i) = static_cast<T>(Start + static_cast<std::ptrdiff_t>(i) * Step);
  }
};
// A fresh array of dtype T and extents E... that the graph then writes,
// region by region (ip::concatenate): zero-filled, so that no element is ever
// read unset (debug mode's NaN search reads every result).
template <class T, std::size_t... E>
struct fresh_array {
  static constexpr std::string_view name = "empty";
  template <std::size_t, class...>
  using output_dtype = T;
  static constexpr shape output_shape(std::size_t, const std::array<shape, 0>&) { return shape{sizeof...(E), {E...}}; }
  template <class O>
  void kernel(const O& out) const {
    if (out.size() > 0) std::fill(out.data(), out.data() + out.size(), T{});  // (a fresh buffer: dense)
  }
};
}  // namespace ops

namespace detail {
// arange<T, Stop>'s omitted second bound (arange<T, 3, 3> is NumPy's
// arange(3, 3), empty, not arange(3)).
inline constexpr std::ptrdiff_t arange_no_stop = std::numeric_limits<std::ptrdiff_t>::min();

template <class T, std::ptrdiff_t A, std::ptrdiff_t B, std::ptrdiff_t Step>
constexpr auto arange_value() {
  static_assert(Step != 0, "inplace: slice_step: ip::arange<T, Start, Stop, Step>: the step must not be 0; fix: use a "
                           "positive step, or a negative one to count down.");
  constexpr bool one = B == arange_no_stop;  // arange<T, Stop>: from 0
  using Op = ops::arange<T, one ? 0 : A, one ? A : B, Step == 0 ? 1 : Step>;
  static_assert(!std::is_same_v<T, bool> || arange_length(one ? 0 : A, one ? A : B, Step) <= 2,
                "inplace: dtype: ip::arange<bool, ...> of more than two elements: NumPy's arange of bool holds at most "
                "False, True (it raises); fix: compare an integer arange, e.g. ip::arange<int, N>() > 0_c.");
  return out<node<Op>, 0>{};
}
}  // namespace detail

// Values, so both NumPy's call and a plain name read: ip::zeros<float, 2, 3>()
// and ip::zeros<float, 2, 3> are the same value (a graph value called with no
// argument is itself).
template <class T, std::size_t... E>
inline constexpr auto zeros = ::inplace::broadcast_to<E...>(detail::typed_constant<T, detail::constant_leaf<'0'>>{});
template <class T, std::size_t... E>
inline constexpr auto ones = ::inplace::broadcast_to<E...>(detail::typed_constant<T, detail::constant_leaf<'1'>>{});
template <class T, std::size_t... E, class C>
  requires detail::is_constant_leaf<C>
constexpr auto full(C) { return ::inplace::broadcast_to<E...>(detail::typed_constant<T, C>{}); }

template <class T, std::ptrdiff_t A, std::ptrdiff_t B = detail::arange_no_stop, std::ptrdiff_t Step = 1>
inline constexpr auto arange = detail::arange_value<T, A, B, Step>();

}  // namespace inplace

#include "inplace/detail/shadow_on.hpp"
