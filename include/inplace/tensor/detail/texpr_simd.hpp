#pragma once
// Optional SIMD evaluation of expression kernels through xsimd (Debian's
// libxsimd-dev). Used when <xsimd/xsimd.hpp> is on the include path, unless
// INPLACE_NO_XSIMD is defined (INPLACE_HAS_XSIMD, detail/config.hpp); without
// it, loops rely on the compiler's auto-vectoriser (see INPLACE_IVDEP).
//
// An op runs on batches only when its kernel is known to accept them: the
// standard arithmetic and transcendental ops, their inplace_op variants, and a
// user's op that declares `static constexpr bool simd = true;`.

#include "inplace/detail/config.hpp"
#include "inplace/ops/elementwise.hpp"
#include "inplace/ops/inplace_op.hpp"

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

template <class Op>
struct simd_op : std::bool_constant<requires { requires Op::simd; }> {};
template <class Op, int I>
struct simd_op<ops::inplace_op<Op, I>> : simd_op<Op> {};
#define INPLACE_SIMD_OP(NAME) \
  template <>                 \
  struct simd_op<ops::NAME> : std::true_type {};
INPLACE_SIMD_OP(add)
INPLACE_SIMD_OP(sub)
INPLACE_SIMD_OP(mul)
INPLACE_SIMD_OP(div)
INPLACE_SIMD_OP(neg)
INPLACE_SIMD_OP(exp)
INPLACE_SIMD_OP(log)
INPLACE_SIMD_OP(sqrt)
INPLACE_SIMD_OP(abs)
INPLACE_SIMD_OP(tanh)
INPLACE_SIMD_OP(sigmoid)
INPLACE_SIMD_OP(gelu)
INPLACE_SIMD_OP(sum)
#undef INPLACE_SIMD_OP

// The element types SIMD batches are used for.
template <class T>
inline constexpr bool simd_type = INPLACE_HAS_XSIMD && (std::is_same_v<T, float> || std::is_same_v<T, double>);

}  // namespace inplace::detail::texpr
