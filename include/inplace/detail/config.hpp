#pragma once
// The library's compiler- and feature-specific macros, in one place: the
// headers test these rather than __clang__, __GNUC__ or __has_include (a
// compiler version check stays beside the workaround it guards).
//
//   INPLACE_CLANG, INPLACE_GCC   1 for clang, 1 for g++ (clang defines __GNUC__ too); else 0
//   INPLACE_HAS_XSIMD            1 when the kernels use xsimd: <xsimd/xsimd.hpp> is on the include
//                                path and INPLACE_NO_XSIMD is not defined (tensor/detail/texpr_simd.hpp)
//   INPLACE_HAS_BLAS             1 when dot may call a BLAS: INPLACE_USE_BLAS is defined to 1 (the
//                                CMake option INPLACE_BLAS does; tensor/detail/kernel_blas.hpp)
//   INPLACE_IVDEP                before a loop: its iterations do not depend on each other
//   INPLACE_FP_CONTRACT_BEGIN/END  a * b + c may be one fused multiply-add across statements
//   INPLACE_SHADOW_OFF/ON        -Wshadow off, then as before (detail/shadow_off.hpp, shadow_on.hpp)
//   INPLACE_DIAGNOSTIC_BODY      the body of an overload that returns a rule's diagnostic type
//   INPLACE_CLANG_INLINE         always_inline under clang only (run/detail/executor.hpp)
//
// A pragma cannot be pushed by one #include and popped by the end of the file
// that includes it, so the pairs are two macros each (shadow_off.hpp and
// shadow_on.hpp are the shadow pair as files, included at a header's top and end).

#if defined(__clang__)
#define INPLACE_CLANG 1
#define INPLACE_GCC 0
#elif defined(__GNUC__)
#define INPLACE_CLANG 0
#define INPLACE_GCC 1
#else
#define INPLACE_CLANG 0
#define INPLACE_GCC 0
#endif

#if !defined(INPLACE_NO_XSIMD) && __has_include(<xsimd/xsimd.hpp>)
#define INPLACE_HAS_XSIMD 1
#else
#define INPLACE_HAS_XSIMD 0
#endif

#if defined(INPLACE_USE_BLAS) && INPLACE_USE_BLAS
#define INPLACE_HAS_BLAS 1
#else
#define INPLACE_HAS_BLAS 0
#endif

// Tells the compiler that the loop that follows carries no dependence between
// iterations: the evaluator (tensor/detail/texpr_kernel.hpp) reads the
// destination only with its own index pattern (each element is loaded before
// it is stored, since the stored value depends on it), anything else has been
// checked by address range or copied, so the promise holds. g++ takes `ivdep`;
// clang gets the same fact from the __restrict destination pointer (its
// `vectorize(assume_safety)` would turn every loop it cannot vectorise, such as
// one calling scalar libm, into a -Wpass-failed warning at the user's call site).
#if INPLACE_GCC
#define INPLACE_IVDEP _Pragma("GCC ivdep")
#else
#define INPLACE_IVDEP
#endif

// Kernels may be contracted (a * b + c as one fused multiply-add) once inlined
// into one loop, as g++ does by default (GNU modes); clang contracts only
// within one expression unless told.
#if INPLACE_CLANG
#define INPLACE_FP_CONTRACT_BEGIN _Pragma("float_control(push)") _Pragma("clang fp contract(fast)")
#define INPLACE_FP_CONTRACT_END _Pragma("float_control(pop)")
#else
#define INPLACE_FP_CONTRACT_BEGIN
#define INPLACE_FP_CONTRACT_END
#endif

// g++ -Wshadow warns when a lambda's parameter or local has the name of any
// global of the user's program (int a; int x; ...): not a bug in the library's
// headers, so off inside them.
#if INPLACE_GCC
#define INPLACE_SHADOW_OFF _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wshadow\"")
#define INPLACE_SHADOW_ON _Pragma("GCC diagnostic pop")
#else
#define INPLACE_SHADOW_OFF
#define INPLACE_SHADOW_ON
#endif

// On a broken rule, ip::check, ip::function, ip::position and a call
// f(args...) return the rule's diagnostic type. g++ instantiates it (and fires
// its static_assert) where the user calls them, before their body; clang
// instantiates a return type with the body, which would print the function's
// arguments (the expression types) and, the body being invalid, a second error
// about the constexpr variable: so for clang the failing overload is declared
// only, and the error stops at the user's call.
#if INPLACE_CLANG
#define INPLACE_DIAGNOSTIC_BODY ;
#else
#define INPLACE_DIAGNOSTIC_BODY \
  { return {}; }
#endif

// clang 14 keeps the lambdas that unroll a call's steps out of line (a frame
// each, which dominates a small call); g++ inlines them by itself, and forcing
// it there slowed its calls (docs/performance.md, "Why the code is so").
#if INPLACE_CLANG
#define INPLACE_CLANG_INLINE __attribute__((always_inline))
#else
#define INPLACE_CLANG_INLINE
#endif
