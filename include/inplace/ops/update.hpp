#pragma once
// Writes through views as values: ip::set(r, v), ip::inc(r, v) and
// ip::update<Op>(r, v), where r is a chain of the library's views of a value x,
// are x with the region r replaced by v (added to, combined by Op), v broadcast
// as NumPy does; and ip::dynamic_slice<Axis, Size>(x, start), a view whose
// start is an integer known only when the program runs.
//
// An update is a pure op (x itself is never changed) with an in-place variant
// registered: the rewrite computes it in x's storage when that storage may be
// overwritten (x donated, or an intermediate nothing reads later), and the
// kernel then writes only the region. Otherwise the call copies x once into
// the result (ip::plan counts that copy) and writes the region of the copy.
// The node's inputs are (x, v, r, starts...): r is the region as a value of
// the graph, so that the analysis sees which elements of x the in-place form
// writes (region_input); the starts are the dynamic slices' run-time values,
// which the kernel needs to find the region in a copy of x.

#include "inplace/graph/graph_ops.hpp"
#include "inplace/ops/detail/kernel_decls.hpp"
#include "inplace/ops/inplace_op.hpp"
#include "inplace/ops/views.hpp"

#include <boost/mp11/algorithm.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <string_view>
#include <type_traits>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::ops {

// x[start : start + Size] on axis Axis (negative: from the end), start the
// value of an integer scalar input when the program runs. A start outside
// 0 .. extent - Size is ip::shape_error before anything runs (XLA clamps it
// instead, which would silently write another row).
template <int Axis, std::size_t Size>
struct dynamic_slice : view_op_base {
  static constexpr std::string_view name = "dynamic_slice";
  static constexpr bool dynamic_start = true;
  static constexpr int axis = Axis;
  static constexpr std::size_t size = Size;
  static constexpr shape output_shape(std::size_t, const std::array<shape, 2>& in) {
    shape r = in[0];
    const std::size_t k = detail::axis_of(Axis, r.rank);
    if (k == r.rank || in[1].rank != 0 || (r.extent[k] != dynamic && r.extent[k] < Size)) return shape{dynamic};
    r.extent[k] = Size;
    return r;
  }
  static constexpr detail::step_code index_step(const std::array<shape, 2>& in) {
    return detail::make_step(detail::step_kind::dynamic, static_cast<std::int64_t>(detail::axis_of(Axis, in[0].rank)));
  }
};

// How an update combines the region's old element a with v's element b.
struct replace {  // ip::set: b, converted to x's dtype
  static constexpr std::string_view name = "set";
  template <class A, class B>
  constexpr A operator()(A, B b) const { return static_cast<A>(b); }
};

// x with its region View...(x, starts...) combined with v by Combine (a binary
// elementwise op class, or replace). Inputs: x, v, the region, the starts.
template <class Combine, class... View>
struct update {
  static constexpr std::string_view name = [] {
    if constexpr (std::is_same_v<Combine, replace>) return std::string_view{"set"};
    else if constexpr (std::is_same_v<Combine, add>) return std::string_view{"inc"};
    else return std::string_view{"update"};
  }();
  using combine = Combine;
  using views = boost::mp11::mp_list<View...>;
  static constexpr int region_input = 2;  // the elements the in-place form writes (its pure form copies x)
  static constexpr bool replaces_region = std::is_same_v<Combine, replace>;
  template <std::size_t, class X, class...>
  using output_dtype = X;
  // x's shape, when v broadcasts to the region's (NumPy's x[r] = v).
  template <std::size_t N>
  static constexpr shape output_shape(std::size_t, const std::array<shape, N>& in) {
    const shape& region = in[2];
    const auto b = detail::broadcast(region, in[1]);
    if (!b.ok || b.result.rank != region.rank) return shape{dynamic};
    for (std::size_t k = 0; k < region.rank; ++k)  // (a dynamic extent is checked when the program runs)
      if (region.extent[k] != dynamic && b.result.extent[k] != region.extent[k]) return shape{dynamic};
    return in[0];
  }
  // out holds x (copied there, unless out is x's own storage: the in-place
  // form), then its region, found by the views applied to out, is combined
  // with v. (The region input r is for the analysis; the kernel finds it in out.)
  template <class O, class X, class V, class R, class... S>
  void kernel(const O& out, const X& x, const V& v, const R&, const S&... start) const {
    detail::update_into<Combine>(views{}, out, x, v, start...);
  }
};

}  // namespace inplace::ops

namespace inplace {

template <class Combine, class... View>
struct inplace_variant_traits<ops::update<Combine, View...>, 0> {
  using type = ops::inplace_op<ops::update<Combine, View...>, 0>;
};

namespace detail {

// A library view op, which an update can re-apply to a copy of x.
template <class Op>
concept library_view = std::is_base_of_v<ops::view_op_base, Op>;

// r as a chain of library views of a value: base (x), the view ops from x
// outwards, and the run-time starts they take (their arguments after the first).
template <class R>
struct region_chain {
  using base = R;
  using views = mp_list<>;
  using starts = mp_list<>;
};
template <class Op, template <class = void> class X, template <class = void> class... Start>
  requires library_view<Op>
struct region_chain<out<node<Op, X, Start...>, 0>> {
  using inner = region_chain<X<>>;
  using base = typename inner::base;
  using views = boost::mp11::mp_push_back<typename inner::views, Op>;
  using starts = boost::mp11::mp_append<typename inner::starts, mp_list<Start<>...>>;
};

template <class Op>
inline constexpr bool is_broadcast_view = false;
template <std::size_t... E>
inline constexpr bool is_broadcast_view<ops::broadcast_to<E...>> = true;

// The copy that a reshape of a view whose static layout is not dense reads
// (graph_ops.hpp's ip::apply): a region through it is not a region of x. (Not
// a user's ip::copy(x): a region of that is one of the copy, as in NumPy.)
template <class X>
inline constexpr bool is_reshape_copy = false;
template <template <class = void> class Y>
inline constexpr bool is_reshape_copy<out<node<ops::reshape_copy, Y>, 0>> = true;

template <class Views>
inline constexpr bool reshapes = false;
template <class... View>
inline constexpr bool reshapes<mp_list<View...>> = (reads_row_major<View> || ...);

template <class Combine, bool InPlace, class R, class V, class... View, class... Start>
constexpr auto make_update(R r, V v, mp_list<View...>, mp_list<Start...>) {
  using chain = region_chain<R>;
  using Op = std::conditional_t<InPlace, ops::inplace_op<ops::update<Combine, View...>, 0>, ops::update<Combine, View...>>;
  static_assert(!(is_broadcast_view<View> || ...),
                "inplace: update_region: ip::set, ip::inc and ip::update write through their region, which is a "
                "broadcast view here (ip::broadcast_to repeats elements, read-only as in NumPy); fix: update the "
                "value before broadcasting it.");
  using X = concrete_dtype_t<typename chain::base::dtype>;
  using combined = decltype(std::conditional_t<std::is_same_v<Combine, ops::replace>, ops::add, Combine>{}(
      X{}, concrete_dtype_t<typename V::dtype>{}));
  static_assert(std::is_same_v<Combine, ops::replace> || !std::is_integral_v<X> || !std::is_floating_point_v<combined>,
                "inplace: dtype_mismatch: ip::inc and ip::update<Op> of an integer x with a floating-point value would "
                "store a floating-point result in x's dtype (NumPy's x[r] += v refuses it too); fix: convert v "
                "(ip::set converts, as x[r] = v does), or update a floating-point x.");
  return ::inplace::apply(Op{}, typename chain::base{}, v, r, Start{}...);
}
// The update of region r (a chain of views of x) by v: peels r down to x.
template <class Combine, bool InPlace, class R, class V>
constexpr auto update_of(R r, V v) {
  constexpr bool elementwise = is_elementwise<Combine>() || std::is_same_v<Combine, ops::replace>;
  static_assert(elementwise, "inplace: update_op: ip::update<Op>(r, v) combines the region with v by an elementwise op; "
                             "fix: pass a binary elementwise op class such as ip::ops::mul, ip::ops::min or ip::ops::max.");
  using chain = region_chain<R>;
  // (here, not in make_update: one instantiation less before the message)
  static_assert(!is_reshape_copy<typename chain::base> || !reshapes<typename chain::views>,
                "inplace: update_region: ip::set, ip::inc and ip::update write through their region, which reshapes "
                "a view whose elements are not in row-major order here (a transpose, a strided slice): the reshape "
                "reads a copy, as NumPy's does, so the update would not write x; fix: update through the view itself "
                "(ip::set(ip::transpose(x), v)), or reshape a value first and take the view of that.");
  if constexpr (elementwise) return make_update<Combine, InPlace>(r, v, typename chain::views{}, typename chain::starts{});
  else return r;  // (reported above: one error)
}

}  // namespace detail

// x with the region r (a chain of views of x: ip::view, row, col, block,
// diagonal, transpose, dynamic_slice...) replaced by v: JAX's x.at[r].set(v),
// PyTensor's set_subtensor(x[r], v). v broadcasts to the region as in NumPy and
// is converted to x's dtype.
template <detail::symbolic R, detail::symbolic V>
constexpr auto set(R r, V v) { return detail::update_of<ops::replace, false>(r, v); }
// x with v added to the region r: JAX's x.at[r].add(v), PyTensor's inc_subtensor.
template <detail::symbolic R, detail::symbolic V>
constexpr auto inc(R r, V v) { return detail::update_of<ops::add, false>(r, v); }
// x with the region r combined with v by Op, a binary elementwise op class
// (ip::ops::mul, min, max, a user's): JAX's x.at[r].mul(v), .min(v), .max(v).
template <class Op, detail::symbolic R, detail::symbolic V>
constexpr auto update(R r, V v) { return detail::update_of<Op, false>(r, v); }
// The in-place forms, as ip::add_inplace is add's: they overwrite the region in
// x's storage (x is destroyed, as its destroy_map says), so the analysis orders
// every read of those elements before them, and reads elsewhere in any order.
template <detail::symbolic R, detail::symbolic V>
constexpr auto set_inplace(R r, V v) { return detail::update_of<ops::replace, true>(r, v); }
template <detail::symbolic R, detail::symbolic V>
constexpr auto inc_inplace(R r, V v) { return detail::update_of<ops::add, true>(r, v); }
template <class Op, detail::symbolic R, detail::symbolic V>
constexpr auto update_inplace(R r, V v) { return detail::update_of<Op, true>(r, v); }

// x[start : start + Size] along Axis, start an integer scalar input's value
// (ip::scalar<"t", std::int64_t>) or a rank-0 integer input: XLA's dynamic_slice.
template <int Axis, std::size_t Size, detail::symbolic X, detail::symbolic Start>
constexpr auto dynamic_slice(X x, Start start) {
  using S = std::remove_cvref_t<Start>;
  constexpr bool leaf = S::entry::desc.record.kind != detail::entry_kind::op;
  static_assert(leaf && std::is_integral_v<detail::concrete_dtype_t<typename S::dtype>> && S::value_shape.rank == 0,
                "inplace: dynamic_start: ip::dynamic_slice<Axis, Size>(x, start) takes its start from an integer "
                "scalar input, so that a call checks it before anything runs; fix: declare the start as "
                "ip::scalar<\"t\", std::int64_t> (or a rank-0 integer ip::input) and pass it when calling.");
  return ::inplace::apply(ops::dynamic_slice<Axis, Size>{}, x, start);
}

}  // namespace inplace

#include "inplace/detail/shadow_on.hpp"
