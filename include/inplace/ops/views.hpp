#pragma once
// The view ops: each output 0 is a view of input 0 (view_map {0: [0]}).
// Each states its output shape and its index step (detail/index_pattern.hpp).
// Slicing, reversing and reshaping act as NumPy's x[b:e:s], x[::-1], x.reshape.

#include "inplace/ops/detail/index_pattern.hpp"
#include "inplace/extents.hpp"
#include "inplace/shape.hpp"

#include <boost/hana/integral_constant.hpp>
#include <boost/hana/map.hpp>
#include <boost/hana/pair.hpp>
#include <boost/hana/tuple.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

#include "inplace/detail/shadow_off.hpp"

namespace inplace {

// What ip::view(x, spec...) takes per axis, in graphs and on tensors:
//   ip::range<B, E = ip::end, S = 1>  x[B:E:S] (Python's rules, negative steps too)
//   ip::all                           x[:]
//   ip::at<I>                         x[I]: one element, the axis dropped
//   ip::new_axis                      x[None]: a new axis of extent 1
// On tensors, run-time values as well: ip::runtime_range{b, e, s} and integers.
namespace detail {
// NumPy's all(x), the reduction, for ip::all(x): specialised beside reduce_all
// in graphs (graph/graph_reductions.hpp) and on tensors (tensor/tensor_reductions.hpp).
template <class X>
struct all_reduction;
}  // namespace detail

template <std::ptrdiff_t B, std::ptrdiff_t E = end, std::ptrdiff_t S = 1>
struct range_t {
  static_assert(S != 0 && S != PTRDIFF_MIN, "inplace: slice_step: ip::range<B, E, S>: the step S must not be 0; fix: use a positive step, or a negative one to walk backwards.");
  static constexpr std::ptrdiff_t begin = B, stop = E, step = S;
  // ip::all is x[:] as a view spec, and called, NumPy's all(x): whether every
  // element is true (ip::reduce_all<Axes...> takes axes).
  template <class X>
    requires(B == 0 && E == end && S == 1)
  constexpr auto operator()(X&& x) const {
    return detail::all_reduction<std::remove_cvref_t<X>>::run(std::forward<X>(x));
  }
};
template <std::ptrdiff_t B, std::ptrdiff_t E = end, std::ptrdiff_t S = 1>
inline constexpr range_t<B, E, S> range{};
inline constexpr range_t<0> all{};
template <std::ptrdiff_t I>
struct at_t {
  static constexpr std::ptrdiff_t index = I;
};
template <std::ptrdiff_t I>
inline constexpr at_t<I> at{};
struct new_axis_t {};
inline constexpr new_axis_t new_axis{};
// A slice whose bounds are known when the program runs (tensors only).
struct runtime_range {
  std::ptrdiff_t begin = 0, stop = end, step = 1;
};

}  // namespace inplace

namespace inplace::detail {
template <class S>
inline constexpr bool is_range_spec = false;
template <std::ptrdiff_t B, std::ptrdiff_t E, std::ptrdiff_t S>
inline constexpr bool is_range_spec<range_t<B, E, S>> = true;
template <class S>
inline constexpr bool is_at_spec = false;
template <std::ptrdiff_t I>
inline constexpr bool is_at_spec<at_t<I>> = true;
template <class S>
concept static_view_spec = is_range_spec<S> || is_at_spec<S> || std::is_same_v<S, new_axis_t>;

// An axis argument: negative counts from the end of `rank` axes; rank when out of range.
constexpr std::size_t axis_of(int axis, std::size_t rank) {
  const auto a = axis < 0 ? static_cast<std::ptrdiff_t>(rank) + axis : static_cast<std::ptrdiff_t>(axis);
  return a < 0 || a >= static_cast<std::ptrdiff_t>(rank) ? rank : static_cast<std::size_t>(a);
}
// Python's slice.indices(n) and the length of range(start, stop, step).
struct slice_bounds {
  std::ptrdiff_t first = 0;
  std::size_t length = 0;
};
constexpr slice_bounds resolve_slice(std::ptrdiff_t b, std::ptrdiff_t e, std::ptrdiff_t s, std::size_t n) {
  const auto len = static_cast<std::ptrdiff_t>(n);
  std::ptrdiff_t bb, ee, count;
  if (s > 0) {  // clamp to [0, n], stop omitted = n
    bb = b < 0 ? (b + len < 0 ? 0 : b + len) : (b > len ? len : b);
    ee = e == end ? len : e < 0 ? (e + len < 0 ? 0 : e + len) : (e > len ? len : e);
    count = ee > bb ? (ee - bb - 1) / s + 1 : 0;  // (not (e - b + s - 1) / s: it overflows for a huge s)
  } else {  // clamp to [-1, n - 1], stop omitted = before the first element
    bb = b < 0 ? (b + len < -1 ? -1 : b + len) : (b > len - 1 ? len - 1 : b);
    ee = e == end ? -1 : e < 0 ? (e + len < -1 ? -1 : e + len) : (e > len - 1 ? len - 1 : e);
    count = bb > ee ? (bb - ee - 1) / -s + 1 : 0;
  }
  return count > 0 ? slice_bounds{bb, static_cast<std::size_t>(count)} : slice_bounds{0, 0};
}
// Whether `size` elements from a run-time start t fit an axis of n (a dynamic
// slice's start; nothing is clamped).
constexpr bool start_fits(long long t, std::size_t size, std::size_t n) {
  return t >= 0 && size <= n && static_cast<std::size_t>(t) <= n - size;
}
// s with axis k removed (index_axis, squeeze).
constexpr shape without_axis(const shape& s, std::size_t k) {
  shape r{s.rank - 1, {}};
  r.extent.fill(dynamic);
  for (std::size_t j = 0, o = 0; j < s.rank; ++j)
    if (j != k) r.extent[o++] = s.extent[j];
  return r;
}
}  // namespace inplace::detail

namespace inplace::ops {

struct view_op_base {
  static constexpr auto view_map = boost::hana::make_map(
      boost::hana::make_pair(boost::hana::int_c<0>, boost::hana::tuple_c<int, 0>));
};

// Reverses the order of the axes (NumPy's .T); a vector's transpose is itself.
struct transpose : view_op_base {
  static constexpr std::string_view name = "transpose";
  static constexpr shape output_shape(std::size_t, const std::array<shape, 1>& in) {
    shape r = in[0];
    for (std::size_t i = 0; i < r.rank; ++i) r.extent[i] = in[0].extent[r.rank - 1 - i];
    return r;
  }
  static constexpr detail::step_code index_step(const std::array<shape, 1>&) {
    return detail::make_step(detail::step_kind::transpose);
  }
};


// x[B:E:S] on axis Axis (negative: from the end), Python semantics (negative
// B/E count from the end, ip::end is an omitted stop, S may be negative).
template <int Axis, std::ptrdiff_t B, std::ptrdiff_t E, std::ptrdiff_t S>
struct slice_axis : view_op_base {
  static_assert(S != 0 && S != PTRDIFF_MIN, "inplace: slice_step: ip::slice<B, E, S>: the step S must not be 0; fix: use a positive step to walk "
                        "forward or a negative one to walk backward.");
  static constexpr std::string_view name = "slice";
  static constexpr std::size_t length(std::size_t n) { return detail::resolve_slice(B, E, S, n).length; }
  static constexpr shape output_shape(std::size_t, const std::array<shape, 1>& in) {
    shape r = in[0];
    const std::size_t k = detail::axis_of(Axis, r.rank);
    if (k == r.rank) return shape{dynamic};  // no such axis
    if (r.extent[k] != dynamic) {
      r.extent[k] = length(r.extent[k]);
    } else if constexpr (E != end && ((S > 0 && ((B >= 0 && E >= B) || (B < 0 && E < 0 && E >= B))) ||
                                      (S < 0 && ((E >= 0 && B >= E) || (B < 0 && E < 0 && B >= E))))) {
      // literal bounds: assumes the axis is long enough
      r.extent[k] = static_cast<std::size_t>(S > 0 ? (E - B + S - 1) / S : (B - E - S - 1) / -S);
    }
    return r;
  }
  static constexpr detail::step_code index_step(const std::array<shape, 1>& in) {
    // Only x[0:] keeps every index; a shorter prefix may be broadcast (a length-1
    // x[0:1] over all of x), so it keeps its step.
    if (B == 0 && E == end && S == 1) return detail::make_step(detail::step_kind::identity);
    return detail::make_step(detail::step_kind::slice, static_cast<std::int64_t>(detail::axis_of(Axis, in[0].rank)), B,
                             E == end ? detail::index_pattern::open_end : E, S);
  }
};
template <std::ptrdiff_t B, std::ptrdiff_t E, std::ptrdiff_t S>
using slice = slice_axis<0, B, E, S>;

// x[::-1]: the first axis reversed.
struct reverse : view_op_base {
  static constexpr std::string_view name = "reverse";
  static constexpr shape output_shape(std::size_t, const std::array<shape, 1>& in) {
    return in[0].rank == 0 ? shape{dynamic} : in[0];
  }
  static constexpr detail::step_code index_step(const std::array<shape, 1>&) {
    return detail::make_step(detail::step_kind::slice, 0, -1, detail::index_pattern::open_end, -1);
  }
};

// x[..., I, ...]: element I of axis Axis (negative: from the end); the axis is dropped.
template <int Axis, std::ptrdiff_t I>
struct index_axis : view_op_base {
  static constexpr std::string_view name = "index";
  static constexpr shape output_shape(std::size_t, const std::array<shape, 1>& in) {
    const std::size_t k = detail::axis_of(Axis, in[0].rank);
    if (k == in[0].rank) return shape{dynamic};
    const std::size_t n = in[0].extent[k];
    if (n != dynamic && (I >= static_cast<std::ptrdiff_t>(n) || I < -static_cast<std::ptrdiff_t>(n))) return shape{dynamic};
    return detail::without_axis(in[0], k);
  }
  static constexpr detail::step_code index_step(const std::array<shape, 1>& in) {
    return detail::make_step(detail::step_kind::index, static_cast<std::int64_t>(detail::axis_of(Axis, in[0].rank)), I);
  }
};

// The axes in the order P... (output axis k is input axis P_k; NumPy's transpose(x, axes)).
template <std::size_t... P>
struct permute : view_op_base {
  static constexpr std::string_view name = "permute";
  static constexpr bool valid(std::size_t rank) {
    if (sizeof...(P) != rank) return false;
    const std::array<std::size_t, sizeof...(P) + 1> p{P..., 0};
    for (std::size_t i = 0; i < sizeof...(P); ++i) {
      if (p[i] >= rank) return false;
      for (std::size_t j = 0; j < i; ++j)
        if (p[i] == p[j]) return false;
    }
    return true;
  }
  static constexpr shape output_shape(std::size_t, const std::array<shape, 1>& in) {
    if (!valid(in[0].rank)) return shape{dynamic};
    shape r = in[0];
    std::size_t k = 0;
    ((r.extent[k++] = in[0].extent[P]), ...);
    return r;
  }
  static constexpr detail::step_code index_step(const std::array<shape, 1>&) {
    std::int64_t code = 0, k = 0;
    ((code |= static_cast<std::int64_t>(P) << (4 * k++)), ...);
    return detail::make_step(detail::step_kind::permute, 0, code);
  }
};

// Axes A and B exchanged (NumPy's swapaxes).
template <int A, int B>
struct swap_axes : view_op_base {
  static constexpr std::string_view name = "swap_axes";
  static constexpr shape output_shape(std::size_t, const std::array<shape, 1>& in) {
    const std::size_t a = detail::axis_of(A, in[0].rank), b = detail::axis_of(B, in[0].rank);
    if (a == in[0].rank || b == in[0].rank) return shape{dynamic};
    shape r = in[0];
    r.extent[a] = in[0].extent[b];
    r.extent[b] = in[0].extent[a];
    return r;
  }
  static constexpr detail::step_code index_step(const std::array<shape, 1>& in) {
    const std::size_t a = detail::axis_of(A, in[0].rank), b = detail::axis_of(B, in[0].rank);
    std::int64_t code = 0;
    for (std::size_t k = 0; k < in[0].rank; ++k)
      code |= static_cast<std::int64_t>(k == a ? b : k == b ? a : k) << (4 * k);
    return detail::make_step(detail::step_kind::permute, 0, code);
  }
};

// A new axis of extent 1 before axis Axis (NumPy's expand_dims; x[None] is Axis 0;
// negative: counted from the end of the output's axes).
template <int Axis>
struct expand_dims : view_op_base {
  static constexpr std::string_view name = "expand_dims";
  static constexpr shape output_shape(std::size_t, const std::array<shape, 1>& in) {
    const std::size_t k = detail::axis_of(Axis, in[0].rank + 1);
    if (k == in[0].rank + 1 || in[0].rank == max_rank) return shape{dynamic};
    shape r{in[0].rank + 1, {}};
    r.extent.fill(dynamic);
    for (std::size_t j = 0, i = 0; j < r.rank; ++j) r.extent[j] = j == k ? 1 : in[0].extent[i++];
    return r;
  }
  static constexpr detail::step_code index_step(const std::array<shape, 1>& in) {
    return detail::make_step(detail::step_kind::expand, static_cast<std::int64_t>(detail::axis_of(Axis, in[0].rank + 1)));
  }
};

// Axis Axis, of extent 1, removed (NumPy's squeeze(x, axis)).
template <int Axis>
struct squeeze : view_op_base {
  static constexpr std::string_view name = "squeeze";
  static constexpr shape output_shape(std::size_t, const std::array<shape, 1>& in) {
    const std::size_t k = detail::axis_of(Axis, in[0].rank);
    if (k == in[0].rank || (in[0].extent[k] != dynamic && in[0].extent[k] != 1)) return shape{dynamic};
    return detail::without_axis(in[0], k);
  }
  static constexpr detail::step_code index_step(const std::array<shape, 1>& in) {
    return detail::make_step(detail::step_kind::squeeze, static_cast<std::int64_t>(detail::axis_of(Axis, in[0].rank)));
  }
};

// The diagonal of axes 0 and 1 (element i is x[i, i + Offset] for Offset >= 0,
// x[i - Offset, i] otherwise), as the last axis (NumPy's diagonal, Eigen's diagonal()).
template <std::ptrdiff_t Offset>
struct diagonal : view_op_base {
  static constexpr std::string_view name = "diagonal";
  static constexpr std::size_t length(std::size_t n0, std::size_t n1) {
    const std::size_t s0 = Offset < 0 ? static_cast<std::size_t>(-Offset) : 0, s1 = Offset > 0 ? static_cast<std::size_t>(Offset) : 0;
    const std::size_t a = n0 > s0 ? n0 - s0 : 0, b = n1 > s1 ? n1 - s1 : 0;
    return a < b ? a : b;
  }
  static constexpr shape output_shape(std::size_t, const std::array<shape, 1>& in) {
    if (in[0].rank < 2) return shape{dynamic};
    shape r{in[0].rank - 1, {}};
    r.extent.fill(dynamic);
    for (std::size_t j = 2; j < in[0].rank; ++j) r.extent[j - 2] = in[0].extent[j];
    const std::size_t n0 = in[0].extent[0], n1 = in[0].extent[1];
    r.extent[r.rank - 1] = n0 == dynamic || n1 == dynamic ? dynamic : length(n0, n1);
    return r;
  }
  static constexpr detail::step_code index_step(const std::array<shape, 1>&) {
    return detail::make_step(detail::step_kind::diagonal, 0, 1, Offset);
  }
};

// A read-only view with extents E... (NumPy's broadcast_to): new leading axes
// and axes of extent 1 repeat with stride 0. Never writable or destroyable.
template <std::size_t... E>
struct broadcast_to : view_op_base {
  static constexpr std::string_view name = "broadcast_to";
  static constexpr shape output_shape(std::size_t, const std::array<shape, 1>& in) {
    shape r{sizeof...(E), {E...}};
    for (std::size_t j = sizeof...(E); j < max_rank; ++j) r.extent[j] = dynamic;
    if (in[0].rank > r.rank) return shape{dynamic};
    for (std::size_t j = 0; j < in[0].rank; ++j) {
      const std::size_t a = in[0].extent[j], b = r.extent[r.rank - in[0].rank + j];
      if (a != dynamic && a != 1 && a != b) return shape{dynamic};
    }
    return r;
  }
  static constexpr detail::step_code index_step(const std::array<shape, 1>&) {
    return detail::make_step(detail::step_kind::broadcast);
  }
};

// A fresh dense copy of a value (NumPy's x.copy(), order C): ip::copy(x).
// Elementwise, so it is one loop into a buffer that ip::plan counts, reading
// the value where it lies (a view too), and it fuses as any elementwise op.
struct copy {
  static constexpr std::string_view name = "copy";
  static constexpr bool elementwise = true;
  static constexpr bool simd = true;  // (rows that are dense, as S[::2]'s, copy by batches)
  // (no output_dtype: the elementwise rule gives the operand's, and a
  // constant's copy folds to the constant as any elementwise op of it does)
  template <class A>
  constexpr A operator()(A a) const { return a; }
};

// The copy a graph reshapes when the static layout proves the operand's
// elements are not in row-major order (graph/graph_ops.hpp, ip::apply):
// NumPy's S.T.reshape(-1) copies too. ops::copy under a type of its own, so
// that an update tells it from a copy the user made: a region through it is
// not a region of the value viewed (ops/update.hpp's update_region), while a
// region of ip::copy(x) is one of that copy.
struct reshape_copy : copy {
  static constexpr std::string_view name = "reshape_copy";
};

// The same elements in row-major order with static extents E...
template <std::size_t... E>
struct reshape : view_op_base {
  static constexpr std::string_view name = "reshape";
  static constexpr bool needs_row_major_input = true;  // a call copies a strided argument for it
  static constexpr shape output_shape(std::size_t, const std::array<shape, 1>& in) {
    shape r{sizeof...(E), {}};
    r.extent.fill(dynamic);
    std::size_t i = 0;
    ((r.extent[i++] = E), ...);
    const std::size_t n = in[0].size();
    if (n != dynamic && n != (std::size_t{1} * ... * E)) return shape{dynamic};  // size differs
    return r;
  }
  static constexpr detail::step_code index_step(const std::array<shape, 1>&) {
    return detail::make_step(detail::step_kind::reshape);
  }
};

// All elements as a vector, row-major.
struct flatten : view_op_base {
  static constexpr std::string_view name = "flatten";
  static constexpr bool needs_row_major_input = true;
  static constexpr shape output_shape(std::size_t, const std::array<shape, 1>& in) {
    shape r{1, {}};
    r.extent.fill(dynamic);
    r.extent[0] = in[0].size();
    return r;
  }
  static constexpr detail::step_code index_step(const std::array<shape, 1>&) {
    return detail::make_step(detail::step_kind::reshape);
  }
};

// The same bytes as another dtype (TVM's buffer alias); the last axis scales
// with the size ratio of the two types.
template <class U>
struct reinterpret : view_op_base {
  static_assert(std::is_trivially_copyable_v<U>, "inplace: reinterpret_type: ip::reinterpret<U>: U must be trivially copyable; "
                "fix: reinterpret as an arithmetic or other trivially copyable type.");
  static constexpr std::string_view name = "reinterpret";
  template <std::size_t, class T>
  using output_dtype = U;
  template <class T>
  static constexpr shape output_shape_of(const shape& in) {
    shape r = in;
    if (r.rank == 0 || sizeof(T) == sizeof(U)) return sizeof(T) == sizeof(U) ? r : shape{dynamic};
    std::size_t& last = r.extent[r.rank - 1];
    if (last != dynamic) {
      if ((last * sizeof(T)) % sizeof(U) != 0) return shape{dynamic};
      last = last * sizeof(T) / sizeof(U);
    }
    return r;
  }
  // Another size scales the last axis: the bytes must be dense (a graph
  // refuses a view its static layout proves is not: shape_mismatch).
  template <class T>
  static constexpr bool needs_dense_input() { return sizeof(T) != sizeof(U); }
  template <class T>
  static constexpr detail::step_code index_step_of(const shape&) {
    return sizeof(T) == sizeof(U) ? detail::make_step(detail::step_kind::identity)
                                  : detail::make_step(detail::step_kind::reinterpret, 0, sizeof(T), sizeof(U));
  }
};

}  // namespace inplace::ops

#include "inplace/detail/shadow_on.hpp"
