#pragma once
// exp and log of an xsimd batch over the whole range of its type, as std::exp,
// std::log and NumPy give them. xsimd 8's exp returns inf above its maxlog,
// 88.376 for float, where float's largest finite exp is at 88.7228
// (np.exp(np.float32(88.5)) is 2.72e38), and 0 wherever the result is subnormal
// (below -87.34 for float, -708.40 for double: np.exp(-745.0) is 5e-324). Its
// double log of a subnormal is off by up to 37 (log(7.4e-309) gave -746.2;
// NumPy: -709.5). A batch with a lane in such a range (rare: values near the
// ends of the range) is computed by the std function lane by lane, as the
// scalar tail of the same loop would; NaN lanes compare false and keep
// xsimd's NaN. sigmoid reads exp through here too.
//
// Batches are templates on their type: exp, log and any are xsimd's, found by
// argument-dependent lookup, so this header needs no xsimd.

#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>

namespace inplace::detail {

// An xsimd batch (an op's operator() is called with numbers, batches, and
// constant folding's values).
template <class A>
concept simd_batch = requires { typename A::arch_type; };

// batch's lanes through fn, one by one (out of line: the loops' rare path).
template <class B, class F>
[[gnu::noinline, gnu::cold]] B each_lane(const B& batch, F fn) {
  typename B::value_type lanes[B::size];
  batch.store_unaligned(lanes);
  for (auto& lane : lanes) lane = fn(lane);
  return B::load_unaligned(lanes);
}

template <class B>
[[gnu::always_inline]] inline B exp_batch(const B& x) {
  using T = typename B::value_type;
  // |x| <= edge: xsimd's exp is finite and normal (float: maxlog 88.376, log(FLT_MIN) -87.34)
  constexpr T edge = std::is_same_v<T, float> ? T(87.0) : T(708.0);
  const B r = exp(x);
  if (any(abs(x) > B(edge))) [[unlikely]] return each_lane(x, [](T lane) { return std::exp(lane); });
  return r;
}

template <class B>
[[gnu::always_inline]] inline B log_batch(const B& x) {
  using T = typename B::value_type;
  const B r = log(x);
  if (any((x > B(T(0))) & (x < B(std::numeric_limits<T>::min())))) [[unlikely]]
    return each_lane(x, [](T lane) { return std::log(lane); });
  return r;
}

}  // namespace inplace::detail
