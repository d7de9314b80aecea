#pragma once
// The view ops: each output 0 is a view of input 0 (view_map {0: [0]}).
// Each states its output shape and its index step (detail/index_pattern.hpp).
// Slicing, reversing and reshaping act as NumPy's x[b:e:s], x[::-1], x.reshape.

#include "inplace/ops/detail/index_pattern.hpp"
#include "inplace/shape.hpp"

#include <boost/hana/integral_constant.hpp>
#include <boost/hana/map.hpp>
#include <boost/hana/pair.hpp>
#include <boost/hana/tuple.hpp>

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>

#if defined(__GNUC__) && !defined(__clang__)
// g++ -Wshadow warns when a lambda's parameter or local has the name of any
// global of the user's program (int a; int x; ...): not a bug here, so off.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow"
#endif

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
  static constexpr detail::step_code index_step(const std::array<shape, 1>& in) {
    return in[0].rank <= 1 ? detail::make_step(detail::step_kind::identity)
                           : detail::make_step(detail::step_kind::transpose);
  }
};

// x[B:E:S] on the first axis, Python semantics (negative B/E count from the end).
template <std::ptrdiff_t B, std::ptrdiff_t E, std::ptrdiff_t S>
struct slice : view_op_base {
  static_assert(S != 0, "inplace: slice_step: ip::slice<B, E, S>: the step S must not be 0; fix: use a positive step to walk "
                        "forward or a negative one to walk backward.");
  static constexpr std::string_view name = "slice";
  // Python's slice.indices(n) followed by the length of range(start, stop, step).
  static constexpr std::size_t length(std::size_t n) {
    const auto len = static_cast<std::ptrdiff_t>(n);
    auto clamp = [&](std::ptrdiff_t v, bool is_stop) {
      if (is_stop && v == end) return S > 0 ? len : std::ptrdiff_t{-1};
      if (v < 0) v += len;
      if (S > 0) return v < 0 ? 0 : (v > len ? len : v);
      return v < -1 ? -1 : (v > len - 1 ? len - 1 : v);
    };
    const std::ptrdiff_t b = clamp(B, false), e = clamp(E, true);
    const std::ptrdiff_t count = S > 0 ? (e - b + S - 1) / S : (b - e + (-S) - 1) / (-S);
    return count > 0 ? static_cast<std::size_t>(count) : 0;
  }
  static constexpr shape output_shape(std::size_t, const std::array<shape, 1>& in) {
    shape r = in[0];
    if (r.rank == 0) return shape{dynamic};  // a scalar cannot be sliced
    if (r.extent[0] != dynamic) r.extent[0] = length(r.extent[0]);
    if constexpr (E != end && S > 0 && ((B >= 0 && E >= B) || (B < 0 && E < 0 && E >= B)))
      if (r.extent[0] == dynamic) r.extent[0] = static_cast<std::size_t>((E - B + S - 1) / S);  // assumes the axis is long enough
    return r;
  }
  static constexpr detail::step_code index_step(const std::array<shape, 1>&) {
    // Only x[0:] keeps every index; a shorter prefix may be broadcast (a length-1
    // x[0:1] over all of x), so it keeps its step.
    if (B == 0 && E == end && S == 1) return detail::make_step(detail::step_kind::identity);
    return detail::make_step(detail::step_kind::slice, B, E, S);
  }
};

// x[::-1]: the first axis reversed.
struct reverse : view_op_base {
  static constexpr std::string_view name = "reverse";
  static constexpr shape output_shape(std::size_t, const std::array<shape, 1>& in) {
    return in[0].rank == 0 ? shape{dynamic} : in[0];
  }
  static constexpr detail::step_code index_step(const std::array<shape, 1>&) {
    return detail::make_step(detail::step_kind::reverse);
  }
};

// The same elements in row-major order with static extents E...
template <std::size_t... E>
struct reshape : view_op_base {
  static constexpr std::string_view name = "reshape";
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
    std::uint64_t h = sizeof...(E);
    ((h = detail::mix(h, E)), ...);
    return detail::make_step(detail::step_kind::reshape, static_cast<std::int64_t>(h >> 1));
  }
};

// All elements as a vector, row-major.
struct flatten : view_op_base {
  static constexpr std::string_view name = "flatten";
  static constexpr shape output_shape(std::size_t, const std::array<shape, 1>& in) {
    shape r{1, {}};
    r.extent.fill(dynamic);
    r.extent[0] = in[0].size();
    return r;
  }
  static constexpr detail::step_code index_step(const std::array<shape, 1>&) {
    return detail::make_step(detail::step_kind::reshape, 1);
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
  template <class T>
  static constexpr detail::step_code index_step_of(const shape&) {
    return sizeof(T) == sizeof(U) ? detail::make_step(detail::step_kind::identity)
                                  : detail::make_step(detail::step_kind::reinterpret, sizeof(T), sizeof(U));
  }
};

}  // namespace inplace::ops

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
