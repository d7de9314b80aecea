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

// Integer dtype T's values in floating type F: [lo, hi), lo 0 or -2^k and hi
// 2^k, exact in every floating type; top the largest F that truncates into T:
// T's maximum when F holds it (double: every integer dtype to 32 bits), else
// the F below hi.
template <class T, class F>
struct integer_bounds {
  static constexpr bool max_exact = std::numeric_limits<T>::digits <= std::numeric_limits<F>::digits;
  static constexpr F lo = static_cast<F>(std::numeric_limits<T>::min());
  static constexpr F hi = static_cast<F>(std::numeric_limits<T>::max() / 2 + 1) * 2;
  static constexpr F top =
      max_exact ? static_cast<F>(std::numeric_limits<T>::max()) : hi * (F(1) - std::numeric_limits<F>::epsilon() / 2);
};

// F: a floating type, or one that behaves as one (constant folding's const_float).
template <class T, class F>
[[gnu::always_inline]] constexpr T convert(F x) {
  if constexpr (integer_dtype<T> && std::is_floating_point_v<F>) {
    // Clamped in F by selects, not branches (a loop of them vectorises: x86
    // cvttpd2dq and masks), then converted: NaN -> 0, below lo -> lo, above top -> top.
    using b = integer_bounds<T, F>;
    F c = b::lo < x ? x : b::lo;
    c = c < b::top ? c : b::top;
    c = x == x ? c : F(0);
    const T r = static_cast<T>(c);  // c in [lo, top]: defined
    if constexpr (b::max_exact) return r;
    else return x >= b::hi ? std::numeric_limits<T>::max() : r;
  } else if constexpr (integer_dtype<T> && !std::is_integral_v<F>) {  // const_float<U>
    using b = integer_bounds<T, long double>;
    if (!(x == x)) return T(0);
    if (x < F(b::lo)) return std::numeric_limits<T>::min();
    if (!(x < F(b::hi))) return std::numeric_limits<T>::max();
    return static_cast<T>(x);
  } else return static_cast<T>(x);
}

}  // namespace inplace::detail
