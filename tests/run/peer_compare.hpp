#pragma once
// What the peer-case tests (peer_reductions.cpp, peer_updates.cpp,
// peer_shapes.cpp) compare with: a result's elements and extents as doubles
// and sizes, NaN equal to NaN.
#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>
#include <vector>

namespace {
constexpr double nan_v = std::numeric_limits<double>::quiet_NaN();

// The elements in row-major order, through the strides (a result may be a
// strided view of an argument).
template <class V>
std::vector<double> values(const V& v) {
  std::vector<double> r;
  for (std::size_t k = 0; k < v.size(); ++k) {
    std::ptrdiff_t at = 0;
    for (std::size_t i = static_cast<std::size_t>(V::rank), rest = k; i-- > 0; rest /= v.extent(i))
      at += static_cast<std::ptrdiff_t>(rest % v.extent(i)) * v.stride(i);
    r.push_back(static_cast<double>(v.data()[at]));
  }
  return r;
}
// Equal element by element, a NaN equal to a NaN.
bool same(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
  return true;
}
template <class V>
std::vector<std::size_t> extents(const V& v) {
  std::vector<std::size_t> e;
  for (std::size_t k = 0; k < static_cast<std::size_t>(V::rank); ++k) e.push_back(v.extent(k));
  return e;
}
template <class V, class T>
constexpr bool dtype_is = std::is_same_v<std::remove_cv_t<typename std::remove_cvref_t<V>::value_type>, T>;
}  // namespace
