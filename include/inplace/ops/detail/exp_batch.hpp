#pragma once
// exp of an xsimd batch over the whole range of its type, as std::exp and
// NumPy give it. xsimd 8's exp returns inf above its maxlog, 88.376 for float,
// where float's largest finite exp is at 88.7228 (exp(88.5f) is 2.7e38, not
// inf), and 0 wherever the result is subnormal (below -87.34 for float,
// -708.40 for double; NumPy's exp(-87.7f) is 7.9e-39). A batch with a lane
// outside [lo, hi] (rare: values near the ends of the range) is computed by
// std::exp lane by lane, as the scalar tail of the same loop would; NaN lanes
// compare false and stay with xsimd's NaN. sigmoid reads exp through here too.
//
// Batches are templates on their type: exp and any are xsimd's, found by
// argument-dependent lookup, so this header needs no xsimd.

#include <cmath>
#include <cstddef>
#include <type_traits>

namespace inplace::detail {

template <class B>
[[gnu::always_inline]] inline B exp_batch(const B& x) {
  using T = typename B::value_type;
  // inside: xsimd's exp is finite and normal (float: maxlog 88.376, log(FLT_MIN) -87.34)
  constexpr T lo = std::is_same_v<T, float> ? T(-87.0) : T(-708.0);
  constexpr T hi = std::is_same_v<T, float> ? T(88.0) : T(709.0);
  const B r = exp(x);
  if (!any((x < B(lo)) | (x > B(hi)))) return r;
  T v[B::size];
  x.store_unaligned(v);
  for (T& e : v) e = std::exp(e);
  return B::load_unaligned(v);
}

}  // namespace inplace::detail
