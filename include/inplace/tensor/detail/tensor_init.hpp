#pragma once
// Nested initializer lists for ip::tensor: tx_nested_list<T, 2> is
// std::initializer_list<std::initializer_list<T>>. Ragged lists throw ip::shape_error.

#include "inplace/tensor/detail/tensor_layout.hpp"
#include "inplace/error.hpp"

#include <cstddef>
#include <initializer_list>
#include <string>
#include <type_traits>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail {

template <class T, std::size_t N>
struct tx_nested {
  using type = std::initializer_list<typename tx_nested<T, N - 1>::type>;
};
template <class T>
struct tx_nested<T, 0> {
  using type = T;
};
template <class T, std::size_t N>
using tx_nested_list = typename tx_nested<T, N>::type;

// Extents of a nested list; every sub-list of one level must have the same length.
template <class T, std::size_t N>
tx_extents<N> tx_nested_extents(const tx_nested_list<T, N>& l) {
  tx_extents<N> e{};
  auto walk = [&](auto& self, const auto& list, auto level, bool first) -> void {
    constexpr std::size_t K = decltype(level)::value;  // remaining depth
    constexpr std::size_t axis = N - K;
    if (first) e[axis] = list.size();
    else if (e[axis] != list.size())
      throw shape_error("inplace: shape_error: ragged initializer list: axis " + std::to_string(axis) + " has " +
                        std::to_string(list.size()) + " and " + std::to_string(e[axis]) + " elements");
    if constexpr (K > 1) {
      bool f = first;
      for (const auto& sub : list) {
        self(self, sub, std::integral_constant<std::size_t, K - 1>{}, f);
        f = false;
      }
    }
  };
  walk(walk, l, std::integral_constant<std::size_t, N>{}, true);
  return e;
}

template <class T, std::size_t N>
void tx_nested_copy(const tx_nested_list<T, N>& l, T*& p) {
  if constexpr (N == 1) {
    for (const T& x : l) *p++ = x;
  } else {
    for (const auto& sub : l) tx_nested_copy<T, N - 1>(sub, p);
  }
}

}  // namespace inplace::detail

#include "inplace/detail/shadow_on.hpp"
