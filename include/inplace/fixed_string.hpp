#pragma once
// ip::fixed_string: a string literal usable as a template argument. Symbol names
// live in types, so a graph carries no run-time state and diagnostics can print them.

#include <cstddef>
#include <string_view>

#include "inplace/detail/shadow_off.hpp"

namespace inplace {

template <std::size_t N>
struct fixed_string {
  char value[N]{};
  constexpr fixed_string() = default;
  constexpr fixed_string(const char (&s)[N]) {
    for (std::size_t i = 0; i < N; ++i) value[i] = s[i];
  }
  static constexpr std::size_t size() { return N - 1; }
  constexpr std::string_view view() const { return {value, N - 1}; }
  constexpr operator std::string_view() const { return view(); }
  template <std::size_t M>
  constexpr bool operator==(const fixed_string<M>& o) const { return view() == o.view(); }
};

template <std::size_t N>
fixed_string(const char (&)[N]) -> fixed_string<N>;

}  // namespace inplace

#include "inplace/detail/shadow_on.hpp"
