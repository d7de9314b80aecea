#pragma once
// Reductions beside reduce_sum, NumPy's: reduce_max, reduce_min, reduce_mean,
// reduce_prod, reduce_any, reduce_all over one axis, several, or all of them, and argmax,
// argmin over one axis or the flattened array; ip::keepdims among the axes
// keeps the reduced axes with extent 1, so that x - reduce_mean<1, ip::keepdims>(x)
// broadcasts. Each reduction is one reducer below (its name, result dtype,
// first value, step and last step); the op class ops::reduce, its kernel
// member (whose body, reduction_into, is in tensor/tensor_reductions.hpp), and
// the graph and tensor functions are derived from it. The graph functions are
// in graph/graph_reductions.hpp, the tensor functions in tensor/tensor_reductions.hpp.

#include "inplace/ops/axes.hpp"
#include "inplace/ops/elementwise.hpp"
#include "inplace/ops/opaque.hpp"
#include "inplace/ops/views.hpp"
#include "inplace/shape.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>

#include "inplace/detail/shadow_off.hpp"

namespace inplace {

namespace detail {

// The axes a reduction takes, read against the operand's rank: which axes it
// reduces, whether it keeps them, and whether the list is valid (each axis
// once, in -rank .. rank - 1, ip::ops::all_axes alone, ip::keepdims at most once).
struct reduction_axes {
  bool ok = true, keep = false;
  std::array<bool, max_rank> reduced{};
  std::size_t count = 0;

  template <std::size_t K>
  static constexpr reduction_axes read(const std::array<int, K>& axes, std::size_t rank) {
    reduction_axes r;
    std::size_t listed = 0;
    bool all = false;
    for (int a : axes) {
      if (a == keepdims) {
        r.ok = r.ok && !r.keep;
        r.keep = true;
      } else if (a == ops::all_axes) {
        all = true;
      } else {
        const std::size_t k = axis_of(a, rank);
        if (k == rank || r.reduced[k]) r.ok = false;
        else r.reduced[k] = true, ++listed;
      }
    }
    if (all && listed > 0) r.ok = false;
    if (listed == 0)
      for (std::size_t k = 0; k < rank; ++k) r.reduced[k] = true;
    for (std::size_t k = 0; k < rank; ++k) r.count += r.reduced[k];
    return r;
  }
  // The result's shape from the operand's.
  constexpr shape result(const shape& in) const {
    shape s{};
    for (std::size_t k = 0; k < in.rank; ++k)
      if (!reduced[k]) s.extent[s.rank++] = in.extent[k];
      else if (keep) s.extent[s.rank++] = 1;
    return s;
  }
};

// Reducer's axes Axes... on an operand of rank Rank, checked: one error that
// names the rule, for graphs and tensors alike.
template <class Reducer, std::size_t Rank, int... Axes>
constexpr reduction_axes checked_axes() {
  constexpr auto r = reduction_axes::read(std::array<int, sizeof...(Axes)>{Axes...}, Rank);
  static_assert(r.ok, "inplace: reduce_axis: a reduction's axes must be axes of the operand (0 to rank - 1, or -rank "
                      "to -1 from the end), each once, with ip::keepdims at most once; fix: list each axis the "
                      "operand has once.");
  if constexpr (requires { Reducer::is_arg; })
    static_assert(sizeof...(Axes) - r.keep <= 1, "inplace: reduce_axis: argmax and argmin take one axis, or none (the "
                                                 "index in the flattened array); fix: pass at most one axis.");
  return r;
}

}  // namespace detail

namespace ops {

// A reducer: name; result<T>; first(x): the accumulator of one element;
// step(acc, x); last(acc, n): the result from the accumulator of n elements;
// empty<T>(): the accumulator of no element, or none (an error, as NumPy's
// max of nothing).
// max and min: NumPy's (a NaN in the axis gives NaN); none of no element.
template <bool Max>
struct extreme_reducer {
  static constexpr std::string_view name = Max ? "reduce_max" : "reduce_min";
  template <class T> using result = T;
  template <class T> using acc = T;
  template <class T> static constexpr T first(T x) { return x; }
  template <class T> static constexpr T step(T a, T x) {
    if constexpr (Max) return max{}(a, x);
    else return min{}(a, x);
  }
  template <class R, class T> static constexpr R last(T a, std::size_t) { return a; }
};
using max_reducer = extreme_reducer<true>;
using min_reducer = extreme_reducer<false>;
// Floating sums in double (float elements), signed integers in their unsigned
// twin (an overflowing sum wraps as NumPy's, never undefined), other integers
// in their type: reduce_sum's and the reductions' accumulator.
template <class T, bool = std::is_integral_v<T> && std::is_signed_v<T>>
struct wide_sum {
  using type = std::conditional_t<std::is_floating_point_v<T>, std::common_type_t<T, double>, T>;
};
template <class T>
struct wide_sum<T, true> {
  using type = std::make_unsigned_t<T>;
};
template <class T>
using wide_sum_t = typename wide_sum<T>::type;
struct sum_reducer {
  static constexpr std::string_view name = "reduce_sum";
  template <class T> using result = T;
  template <class T> using acc = wide_sum_t<T>;
  template <class T> static constexpr acc<T> empty() { return acc<T>{}; }
  template <class T> static constexpr acc<T> first(T x) { return static_cast<acc<T>>(x); }
  template <class A, class T> static constexpr A step(A a, T x) { return a + static_cast<A>(x); }
  template <class R, class A> static constexpr R last(A a, std::size_t) { return static_cast<R>(a); }
};
// The mean in the operand's floating dtype (integers: double), NumPy's.
struct mean_reducer {
  static constexpr std::string_view name = "reduce_mean";
  template <class T> using result = std::conditional_t<std::is_floating_point_v<T>, T, double>;
  template <class T> using acc = wide_sum_t<result<T>>;
  template <class T> static constexpr acc<T> empty() { return acc<T>{}; }
  template <class T> static constexpr acc<T> first(T x) { return static_cast<acc<T>>(x); }
  template <class A, class T> static constexpr A step(A a, T x) { return a + static_cast<A>(x); }
  template <class R, class A> static constexpr R last(A a, std::size_t n) {
    return n == 0 ? std::numeric_limits<R>::quiet_NaN() : static_cast<R>(a / static_cast<A>(n));
  }
};
struct prod_reducer {
  static constexpr std::string_view name = "reduce_prod";
  template <class T> using result = T;
  template <class T> using acc = T;
  template <class T> static constexpr T empty() { return T(1); }
  template <class T> static constexpr T first(T x) { return x; }
  template <class T> static constexpr T step(T a, T x) { return mul{}(a, x); }
  template <class R, class T> static constexpr R last(T a, std::size_t) { return static_cast<R>(a); }
};
struct any_reducer {
  static constexpr std::string_view name = "reduce_any";
  template <class T> using result = bool;
  template <class T> using acc = bool;
  template <class T> static constexpr bool empty() { return false; }
  template <class T> static constexpr bool first(T x) { return x != T{}; }
  template <class T> static constexpr bool step(bool a, T x) { return a || x != T{}; }
  template <class R> static constexpr R last(bool a, std::size_t) { return a; }
};
struct all_reducer {
  static constexpr std::string_view name = "reduce_all";
  template <class T> using result = bool;
  template <class T> using acc = bool;
  template <class T> static constexpr bool empty() { return true; }
  template <class T> static constexpr bool first(T x) { return x != T{}; }
  template <class T> static constexpr bool step(bool a, T x) { return a && x != T{}; }
  template <class R> static constexpr R last(bool a, std::size_t) { return a; }
};
// The index of the first largest (smallest) element along the axis, a NaN
// counting as the largest and the smallest (NumPy's argmax, argmin).
template <bool Max>
struct arg_reducer {
  static constexpr std::string_view name = Max ? "argmax" : "argmin";
  static constexpr bool is_arg = true;
  template <class T> using result = std::int64_t;
  template <class T>
  static constexpr bool better(T x, T best) {
    if constexpr (std::is_floating_point_v<T>) {
      if (best != best) return false;  // the first NaN stays
      if (x != x) return true;
    }
    return Max ? best < x : x < best;
  }
};

// Reducers that sum or multiply: their functions (graph and tensor alike) cast
// a bool or narrow integer operand to sum_dtype first (NumPy's int64 count of
// bool, np.prod of int8 in int64).
template <class Reducer>
inline constexpr bool widens_integers = std::is_same_v<Reducer, sum_reducer> || std::is_same_v<Reducer, prod_reducer>;

// The reduction of Reducer over Axes... (ip::keepdims among them keeps the
// reduced axes with extent 1; none: every axis). Opaque, never in place.
template <class Reducer, int... Axes>
struct reduce {
  static constexpr std::string_view name = Reducer::name;
  using reducer = Reducer;
  static constexpr std::array<int, sizeof...(Axes)> axes{Axes...};
  template <std::size_t, class T>
  using output_dtype = typename Reducer::template result<T>;
  static constexpr shape output_shape(std::size_t, const std::array<shape, 1>& in) {
    const auto r = detail::reduction_axes::read(axes, in[0].rank);
    if (!r.ok) return shape{dynamic};
    if constexpr (requires { Reducer::is_arg; })  // one axis, or the flattened array
      if (r.count != 1 && r.count != in[0].rank) return shape{dynamic};
    return r.result(in[0]);
  }
  template <class O, class A>
  void kernel(const O& out, const A& a) const {
    static constexpr auto r = detail::reduction_axes::read(axes, A::rank);
    detail::texpr::reduction_into<Reducer>(out, a, r);
  }
};

}  // namespace ops

}  // namespace inplace

#include "inplace/detail/shadow_on.hpp"
