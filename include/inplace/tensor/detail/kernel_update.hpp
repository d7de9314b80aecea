#pragma once
// The body of an update's kernel (ops::update::kernel, ops/update.hpp):
// out holds x (the kernel copies it there, unless out is x's own storage: the
// in-place form), then its region, found by the update's views applied to
// out, is combined with v.

#include "inplace/ops/update.hpp"
#include "inplace/tensor/assign.hpp"
#include "inplace/tensor/detail/op_views.hpp"
#include "inplace/tensor/expression.hpp"

#include <cstddef>
#include <tuple>
#include <type_traits>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail {

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

template <class Combine, class Views, class O, class X, class V, class... S>
void update_into(Views, const O& out, const X& x, const V& v, const S&... start) {
  if (out.data() != x.data()) detail::assign(out, x, assign_mode::noalias);
  with_region<0>(out, Views{}, std::tie(start...), [&](const auto& region) {
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

}  // namespace inplace::detail

#include "inplace/detail/shadow_on.hpp"
