#pragma once
// The kernel each opaque op runs when a graph runs it (run/detail/executor.hpp):
// opaque_kernel<Op>::run(outputs..., inputs...), outputs first, all
// ip::tensor_views. The library's opaque ops run the kernels the tensor
// functions run (kernel_dot.hpp, kernel_reduce.hpp, kernel_softmax.hpp).
// Adding an opaque op to the library: its op class (ops/opaque.hpp), its
// tensor function (tensor_opaque.hpp) and its row here.

#include "inplace/ops/opaque.hpp"
#include "inplace/ops/update.hpp"
#include "inplace/tensor/detail/op_views.hpp"
#include "inplace/tensor/assign.hpp"
#include "inplace/tensor/expression.hpp"
#include "inplace/tensor/tensor_opaque.hpp"
#include "inplace/tensor/tensor_reductions.hpp"

#include <cstddef>
#include <tuple>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail {

// A user's opaque op provides `void kernel(outputs..., inputs...) const` taking
// ip::tensor_views; for an output in its destroy_map, the view is the storage
// to overwrite (it holds the destroyed input's elements).
template <class Op>
struct opaque_kernel {
  template <class... X>
  static void run(const X&... x) {
    static_assert(requires { Op{}.kernel(x...); },
                  "inplace: op_kernel: an opaque op run in a graph needs a kernel; fix: give it void "
                  "kernel(outputs..., inputs...) const, taking ip::tensor_view arguments (outputs first).");
    if constexpr (requires { Op{}.kernel(x...); }) Op{}.kernel(x...);
  }
};
template <>
struct opaque_kernel<ops::dot> {
  template <class O, class A, class B>
  static void run(const O& out, const A& a, const B& b) {
    texpr::dot_into(out.data(), a, b);
  }
};
template <>
struct opaque_kernel<ops::matmul> {
  template <class O, class A, class B>
  static void run(const O& out, const A& a, const B& b) {
    texpr::matmul_into(out.data(), a, b);
  }
};
template <int Axis>
struct opaque_kernel<ops::reduce_sum<Axis>> {
  template <class O, class A>
  static void run(const O& out, const A& a) {
    texpr::reduce_sum_into<static_cast<std::size_t>(texpr::reduce_axis<Axis, A::rank>)>(out.data(), a);
  }
};
template <>
struct opaque_kernel<ops::softmax_inplace> {
  template <class O, class A>
  static void run(const O& out, const A&) {
    using T = typename O::value_type;
    texpr::for_each_row_parallel(out.data(), out.extents(), out.strides(), texpr::parallel_softmax_threshold,
                                 [](T* p, std::size_t n, std::ptrdiff_t s) { texpr::softmax_row(p, n, s); });
  }
};
template <>
struct opaque_kernel<ops::softmax> {
  template <class O, class A>
  static void run(const O& out, const A& a) {
    detail::assign(out, a, assign_mode::noalias);
    opaque_kernel<ops::softmax_inplace>::run(out, a);
  }
};

template <class Reducer, int... Axes>
struct opaque_kernel<ops::reduce<Reducer, Axes...>> {
  template <class O, class A>
  static void run(const O& out, const A& a) {
    texpr::reduction_into<Reducer>(out, a, reduction_axes::read(ops::reduce<Reducer, Axes...>::axes, A::rank));
  }
};

// An update: out holds x (the kernel copies it there, unless out is x's own
// storage: the in-place form), then its region, found by the update's views
// applied to out, is combined with v.
//
// A dynamic slice of t, built in line: the call checked its start before
// anything ran, and view_kernel's path (ip::dynamic_slice, out of line for its
// error message) cost a decode step a call and a stalled reload of the view it
// returned. A start out of range still takes that path, for its error.
template <class View, class T, class S>
auto dynamic_region(const T& t, const S& start) {
  constexpr std::size_t k = axis_of(View::axis, T::rank);
  const auto b = *start.data();
  const std::size_t n = t.extent(k);
  if (!start_fits(static_cast<long long>(b), View::size, n)) [[unlikely]]
    return view_kernel<View>::run(t, start);
  auto ext = t.extents();
  ext[k] = View::size;
  return tx_view<typename T::element_type, T::rank>(tx_unchecked, t.data() + static_cast<std::ptrdiff_t>(b) * t.stride(k), ext,
                                                    t.strides());
}
// f(the region): the views applied from x outwards, K the next start. The
// region is handed on, not returned: returning it made g++ store it field by
// field and reload it whole, a stalled load on every call.
template <std::size_t K, class T, class Starts, class F>
void with_region(const T& t, mp_list<>, const Starts&, F&& f) {
  f(t);
}
template <std::size_t K, class T, class View, class... Rest, class Starts, class F>
void with_region(const T& t, mp_list<View, Rest...>, const Starts& starts, F&& f) {
  if constexpr (requires { View::dynamic_start; })
    with_region<K + 1>(dynamic_region<View>(t, std::get<K>(starts)), mp_list<Rest...>{}, starts, f);
  else
    with_region<K>(view_kernel<View>::run(t), mp_list<Rest...>{}, starts, f);
}
template <class Combine, class... View>
struct opaque_kernel<ops::update<Combine, View...>> {
  template <class O, class X, class V, class R, class... S>
  static void run(const O& out, const X& x, const V& v, const R&, const S&... start) {
    if (out.data() != x.data()) detail::assign(out, x, assign_mode::noalias);
    with_region<0>(out, mp_list<View...>{}, std::tie(start...), [&](const auto& region) {
      using G = std::remove_cvref_t<decltype(region)>;
      if constexpr (std::is_same_v<Combine, ops::replace>) {
        // (v computed straight into the region by the plan: already there)
        if constexpr (std::is_same_v<typename G::value_type, typename V::value_type> && G::rank == V::rank)
          if (static_cast<const void*>(region.data()) == static_cast<const void*>(v.data()) && region.strides() == v.strides())
            return;
        detail::assign(region, v, assign_mode::checked);
      } else {
        detail::assign(region, inplace::apply(Combine{}, region, v), assign_mode::checked);
      }
    });
  }
};
template <class Combine, class... View>
struct opaque_kernel<ops::inplace_op<ops::update<Combine, View...>, 0>> : opaque_kernel<ops::update<Combine, View...>> {};

}  // namespace inplace::detail

#include "inplace/detail/shadow_on.hpp"
