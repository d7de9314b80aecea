#pragma once
// Layout helpers shared by tensors, views and the evaluator: row-major strides,
// element counts, shape text for error messages, NumPy broadcasting and the
// byte range a strided view covers.

#include "inplace/error.hpp"
#include "inplace/extents.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace inplace::detail {

// Tag of the constructors that skip the static-extents check (moved-from tensors).
struct tx_unchecked_t {};
inline constexpr tx_unchecked_t tx_unchecked{};
// Tag of the tensor constructor that leaves the elements unwritten: for storage
// the library fills completely right away (the value of an expression).
struct tx_uninitialized_t {};
inline constexpr tx_uninitialized_t tx_uninitialized{};

template <std::size_t N>
using tx_extents = std::array<std::size_t, N>;
template <std::size_t N>
using tx_strides = std::array<std::ptrdiff_t, N>;

template <std::size_t N>
constexpr std::size_t tx_count(const tx_extents<N>& e) {
  std::size_t n = 1;
  for (auto x : e) n *= x;
  return n;
}

template <std::size_t N>
constexpr tx_strides<N> tx_row_major(const tx_extents<N>& e) {
  tx_strides<N> s{};
  std::ptrdiff_t step = 1;
  for (std::size_t i = N; i-- > 0;) {
    s[i] = step;
    step *= static_cast<std::ptrdiff_t>(e[i]);
  }
  return s;
}

// Row-major and gap-free; axes of extent 1 may have any stride.
template <std::size_t N>
constexpr bool tx_is_contiguous(const tx_extents<N>& e, const tx_strides<N>& s) {
  std::ptrdiff_t step = 1;
  for (std::size_t i = N; i-- > 0;) {
    if (e[i] != 1 && s[i] != step) return tx_count(e) == 0;
    step *= static_cast<std::ptrdiff_t>(e[i]);
  }
  return true;
}

// "(2, 3)": the text error messages show for extents (and strides).
template <class C>
std::string tx_shape_string(const C& e) {
  std::string s = "(";
  bool first = true;
  for (auto x : e) {
    if (!first) s += ", ";
    s += std::to_string(x);
    first = false;
  }
  return s + ")";
}

// The element count of extents e when e elements of elem_size bytes can be
// addressed (at most PTRDIFF_MAX bytes), else false: extents that large would
// wrap every size computation.
template <std::size_t N>
constexpr bool tx_count_fits(const tx_extents<N>& e, std::size_t elem_size, std::size_t& count) {
  count = 1;
  for (auto x : e)
    if (x == 0) return count = 0, true;
  for (auto x : e)
    if (__builtin_mul_overflow(count, x, &count)) return false;
  std::size_t bytes = 0;
  return !__builtin_mul_overflow(count, elem_size, &bytes) && bytes <= static_cast<std::size_t>(PTRDIFF_MAX);
}

// tx_count_fits or ip::shape_error naming the extents.
template <std::size_t N>
std::size_t tx_checked_count(const tx_extents<N>& e, std::size_t elem_size) {
  std::size_t n = 0;
  if (!tx_count_fits(e, elem_size, n))
    throw shape_error("inplace: shape_error: extents " + tx_shape_string(e) + " have more elements of " +
                      std::to_string(elem_size) + " bytes than memory can address");
  return n;
}

// Static extents in a spec R (ip::extents<...>) must match run-time extents e.
template <auto R, std::size_t N>
void tx_check_static_extents(const tx_extents<N>& e) {
  constexpr auto fixed = static_extents_of<R>();
  bool ok = true;
  for (std::size_t i = 0; i < N; ++i) ok = ok && (fixed[i] == dynamic || fixed[i] == e[i]);
  if (!ok) {
    std::string want = "(";
    for (std::size_t i = 0; i < N; ++i)
      want += (i ? ", " : "") + (fixed[i] == dynamic ? std::string("dynamic") : std::to_string(fixed[i]));
    throw shape_error("inplace: shape_error: extents " + tx_shape_string(e) + " do not match the static extents " +
                      want + ")");
  }
}

// The bytes [first, last) a strided view touches; empty when it has no element.
struct tx_byte_range {
  const unsigned char* first = nullptr;
  const unsigned char* last = nullptr;
  bool overlaps(const tx_byte_range& o) const {
    return first != last && o.first != o.last && first < o.last && o.first < last;
  }
};

template <class T, std::size_t N>
tx_byte_range tx_bytes_of(const T* p, const tx_extents<N>& e, const tx_strides<N>& s) {
  if (p == nullptr || tx_count(e) == 0) return {};
  std::ptrdiff_t lo = 0, hi = 0;
  for (std::size_t i = 0; i < N; ++i) {
    const std::ptrdiff_t span = static_cast<std::ptrdiff_t>(e[i] - 1) * s[i];
    (span < 0 ? lo : hi) += span;
  }
  const auto* base = reinterpret_cast<const unsigned char*>(p);
  return {base + lo * static_cast<std::ptrdiff_t>(sizeof(T)), base + (hi + 1) * static_cast<std::ptrdiff_t>(sizeof(T))};
}

}  // namespace inplace::detail
