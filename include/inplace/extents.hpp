#pragma once
// Extents: a rank (all extents dynamic) or ip::extents<E...> (static, ip::dynamic allowed).
// ip::extents<...> is a *value* so that one template slot takes both `2` and
// `ip::extents<16, 16>`: ip::input<"A", float, 2>, ip::tensor<float, ip::extents<4, 4>>.

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace inplace {

inline constexpr std::size_t dynamic = static_cast<std::size_t>(-1);

template <std::size_t... E>
struct static_extents {
  static constexpr std::size_t rank = sizeof...(E);
  static constexpr std::array<std::size_t, sizeof...(E)> values{E...};
};

template <std::size_t... E>
inline constexpr static_extents<E...> extents{};

// `end` for ip::slice<Begin, End = ip::end, Step>: Python's omitted stop.
inline constexpr std::ptrdiff_t end = PTRDIFF_MAX;

// The largest rank the library handles (the analysis keeps extents in fixed arrays).
inline constexpr std::size_t max_rank = 8;

namespace detail {

template <class T>
struct is_static_extents : std::false_type {};
template <std::size_t... E>
struct is_static_extents<static_extents<E...>> : std::true_type {};

// A shape spec is an integral rank or a static_extents value.
template <auto R>
concept shape_spec = (std::integral<decltype(R)> && R >= 0 && static_cast<std::size_t>(R) <= max_rank) ||
                     is_static_extents<std::remove_cv_t<decltype(R)>>::value;

template <auto R>
  requires shape_spec<R>
constexpr std::size_t rank_of() {
  if constexpr (std::integral<decltype(R)>) return static_cast<std::size_t>(R);
  else return std::remove_cv_t<decltype(R)>::rank;
}

// Static extents of a spec, padded with `dynamic`.
template <auto R>
  requires shape_spec<R>
constexpr std::array<std::size_t, max_rank> static_extents_of() {
  std::array<std::size_t, max_rank> e{};
  for (auto& x : e) x = dynamic;
  if constexpr (!std::integral<decltype(R)>) {
    constexpr auto v = std::remove_cv_t<decltype(R)>::values;
    for (std::size_t i = 0; i < v.size(); ++i) e[i] = v[i];
  }
  return e;
}

}  // namespace detail
}  // namespace inplace
