#pragma once
// The index-sequence idiom, named (as Mp11 names mp_for_each): call a lambda
// templated on the indices 0 .. N-1, as one pack:
//
//   with_indices<N>([&]<std::size_t... I>() { return f(std::get<I>(t)...); });
//
// One instantiation of the lambda per call site, as the spelled-out idiom
// `[&]<std::size_t... I>(std::index_sequence<I...>) {...}(std::make_index_sequence<N>{})`
// has; always inlined, so a call costs no frame.

#include <cstddef>
#include <utility>

namespace inplace::detail {

template <class F, std::size_t... I>
[[gnu::always_inline]] constexpr decltype(auto) call_with_indices(F& f, std::index_sequence<I...>) {
  return f.template operator()<I...>();
}
template <std::size_t N, class F>
[[gnu::always_inline]] constexpr decltype(auto) with_indices(F&& f) {
  return call_with_indices(f, std::make_index_sequence<N>{});
}

}  // namespace inplace::detail
