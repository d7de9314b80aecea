#pragma once
// The view each view op gives when a graph runs it (run/detail/executor.hpp):
// view_kernel<Op>::run(in) returns output O's view of its input, the same
// view the tensor function of that name returns (view_functions.hpp,
// axis_views.hpp). Adding a view op to the library: its op class
// (ops/views.hpp), its tensor function and its row here.

#include "inplace/ops/detail/op_info.hpp"
#include "inplace/ops/update.hpp"
#include "inplace/ops/views.hpp"
#include "inplace/tensor/axis_views.hpp"
#include "inplace/tensor/tensor_view.hpp"
#include "inplace/tensor/view_functions.hpp"

#include <cstddef>
#include <type_traits>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail {

// A user view op gives, for output O, the view of the input its view_map names
// for O: `template <std::size_t O> static auto view(in)` (any number of
// outputs), or `static auto view(in)` (one output).
template <class Op>
struct view_kernel {
  template <std::size_t O, class V>
  static constexpr bool has_view() {
    return requires(const V& v) { Op::template view<O>(v); } ||
           (O == 0 && detail::num_outputs_of<Op>() == 1 && requires(const V& v) { Op::view(v); });
  }
  template <std::size_t O = 0, class V>
  static auto run(const V& v) {
    static_assert(has_view<O, V>(),
                  "inplace: op_kernel: a view op run in a graph needs a view function; fix: give it static "
                  "auto view(ip::tensor_view<T, R>) returning the view of its input (with several outputs, "
                  "template <std::size_t O> static auto view(...) returning output O's view).");
    if constexpr (requires { Op::template view<O>(v); }) return Op::template view<O>(v);
    else if constexpr (has_view<O, V>()) return Op::view(v);
    else return v;  // reported above: a view all the same, so nothing more fails
  }
};
template <>
struct view_kernel<ops::transpose> {
  static auto run(const auto& v) { return inplace::transpose(v); }
};
template <int Axis, std::ptrdiff_t B, std::ptrdiff_t E, std::ptrdiff_t S>
struct view_kernel<ops::slice_axis<Axis, B, E, S>> {
  static auto run(const auto& v) { return tx_slice_axis(v, axis_of(Axis, std::remove_cvref_t<decltype(v)>::rank), B, E, S); }
};
template <int Axis, std::ptrdiff_t I>
struct view_kernel<ops::index_axis<Axis, I>> {
  static auto run(const auto& v) { return tx_index_axis(v, axis_of(Axis, std::remove_cvref_t<decltype(v)>::rank), I); }
};
template <std::size_t... P>
struct view_kernel<ops::permute<P...>> {
  static auto run(const auto& v) { return inplace::transpose<P...>(v); }
};
template <int A, int B>
struct view_kernel<ops::swap_axes<A, B>> {
  static auto run(const auto& v) { return inplace::swap_axes<A, B>(v); }
};
template <int Axis>
struct view_kernel<ops::expand_dims<Axis>> {
  static auto run(const auto& v) { return inplace::expand_dims<Axis>(v); }
};
template <int Axis>
struct view_kernel<ops::squeeze<Axis>> {
  static auto run(const auto& v) { return inplace::squeeze<Axis>(v); }
};
template <std::ptrdiff_t K>
struct view_kernel<ops::diagonal<K>> {
  static auto run(const auto& v) { return inplace::diagonal<K>(v); }
};
template <std::size_t... E>
struct view_kernel<ops::broadcast_to<E...>> {
  static auto run(const auto& v) {
    if constexpr (sizeof...(E) == 0) return v;  // rank 0 to rank 0 (ip::zeros<float>): itself
    else return inplace::broadcast_to<E...>(v);
  }
};
template <>
struct view_kernel<ops::reverse> {
  static auto run(const auto& v) { return inplace::reverse(v); }
};
template <std::size_t... E>
struct view_kernel<ops::reshape<E...>> {
  static auto run(const auto& v) { return inplace::reshape<E...>(v); }
};
template <>
struct view_kernel<ops::flatten> {
  static auto run(const auto& v) { return inplace::flatten(v); }
};
template <int Axis, std::size_t Size>
struct view_kernel<ops::dynamic_slice<Axis, Size>> {
  template <class V, class S>
  static auto run(const V& v, const S& start) { return inplace::dynamic_slice<Axis, Size>(v, *start.data()); }
};
template <class U>
struct view_kernel<ops::reinterpret<U>> {
  template <class V>
  static auto run(const V& v) {
    using T = typename V::value_type;
    if constexpr (sizeof(T) == sizeof(U)) {
      return inplace::reinterpret<U>(v);
    } else {  // the last axis scales with the size ratio: dense rows only
      detail::tx_require_contiguous(v, "reinterpret");
      auto e = v.extents();
      if constexpr (V::rank > 0) e[V::rank - 1] = e[V::rank - 1] * sizeof(T) / sizeof(U);
      return tensor_view<U, rank_spec<V::rank>>(reinterpret_cast<U*>(v.data()), e);
    }
  }
};

}  // namespace inplace::detail

#include "inplace/detail/shadow_on.hpp"
