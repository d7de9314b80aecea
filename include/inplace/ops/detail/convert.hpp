#pragma once
// A number converted to dtype T, as ip::cast<T> and a store into a tensor of
// dtype T convert it (NumPy's astype), defined for every value. A floating
// value to an integer T follows JAX's astype (XLA's convert): NaN gives 0, a
// value beyond T's range saturates to T's minimum or maximum (-inf and +inf
// too), any other truncates toward zero; C++'s static_cast is undefined there
// (UBSan's float-cast-overflow) and NumPy's result depends on the machine. Every
// other conversion is C++'s: to bool, value != 0 (NaN is true, as NumPy's);
// integers wrap modulo 2^n; floating to floating rounds.

#include "inplace/ops/detail/integer.hpp"

#include <limits>
#include <type_traits>

namespace inplace::detail {

// F: a floating type, or one that behaves as one (constant folding's const_float).
template <class T, class F>
[[gnu::always_inline]] constexpr T convert(F x) {
  if constexpr (integer_dtype<T> && !std::is_integral_v<F>) {
    // T's values are [lo, hi): lo is 0 or -2^k, hi 2^k, exact in every floating type
    constexpr long double lo = static_cast<long double>(std::numeric_limits<T>::min());
    constexpr long double hi = static_cast<long double>(std::numeric_limits<T>::max() / 2 + 1) * 2;
    if (!(x == x)) return T(0);  // NaN
    if (x < F(lo)) return std::numeric_limits<T>::min();
    if (!(x < F(hi))) return std::numeric_limits<T>::max();
    return static_cast<T>(x);
  } else return static_cast<T>(x);
}

}  // namespace inplace::detail
