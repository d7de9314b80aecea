#pragma once
// Optional SIMD evaluation of expression kernels through xsimd (Debian's
// libxsimd-dev). Used when <xsimd/xsimd.hpp> is on the include path, unless
// INPLACE_NO_XSIMD is defined (INPLACE_HAS_XSIMD, detail/config.hpp); without
// it, loops rely on the compiler's auto-vectoriser (see INPLACE_IVDEP).
//
// An op runs on batches only when its class declares
// `static constexpr bool simd = true;` (ops/elementwise.hpp).

#include "inplace/detail/config.hpp"

#include <type_traits>

#if INPLACE_HAS_XSIMD
// g++ 12 warns inside its own avx512fintrin.h (_mm512_undefined_*: GCC bug
// 105593, fixed in 13) wherever xsimd's AVX-512 code is inlined: the intrinsic
// headers are read here with those warnings off (their lines keep that state).
// clang contracts a * b + c into one FMA only within an expression, and xsimd's
// exp is a polynomial of separate products and sums: read with contraction on,
// as g++ compiles it in its default GNU modes, it runs 1.35x faster (Zen 5).
#if INPLACE_GCC && __GNUC__ < 13
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <xsimd/xsimd.hpp>
#pragma GCC diagnostic pop
#else
INPLACE_FP_CONTRACT_BEGIN
#include <xsimd/xsimd.hpp>
INPLACE_FP_CONTRACT_END
#endif
#endif

namespace inplace::detail::texpr {

// An op runs on batches when its class says that its kernel takes them
// (`static constexpr bool simd = true;`, the standard ops' and a user's alike;
// an inplace_op<Op, I> inherits Op's).
template <class Op>
struct simd_op : std::bool_constant<requires { requires Op::simd; }> {};

// The element types SIMD batches are used for.
template <class T>
inline constexpr bool simd_type = INPLACE_HAS_XSIMD && (std::is_same_v<T, float> || std::is_same_v<T, double>);

}  // namespace inplace::detail::texpr
