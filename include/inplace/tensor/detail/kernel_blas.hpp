#pragma once
// dot on a BLAS (as Eigen's EIGEN_USE_BLAS): with INPLACE_USE_BLAS defined (the
// CMake option INPLACE_BLAS defines it and links the BLAS that CMake's FindBLAS
// finds), float and double products whose operands are both of the result's
// type go to sgemm / dgemm, and matrix-vector products to sgemv / dgemv, when
// every matrix operand has one unit stride (row-major or column-major, e.g. a
// transposed view) and the vector a positive stride; anything else (other
// strides, mixed types, extents past the BLAS's 32-bit integers, the vector
// dot product) runs the built-in kernels. The routines are declared here with
// the Fortran calling convention (every argument by address, one hidden length
// per character argument), which every BLAS exports; no BLAS header is needed.

#include "inplace/detail/config.hpp"

#include <climits>
#include <cstddef>
#include <type_traits>

#if INPLACE_HAS_BLAS
extern "C" {
void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const float* alpha,
            const float* a, const int* lda, const float* b, const int* ldb, const float* beta, float* c, const int* ldc,
            std::size_t, std::size_t);
void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double* alpha,
            const double* a, const int* lda, const double* b, const int* ldb, const double* beta, double* c,
            const int* ldc, std::size_t, std::size_t);
void sgemv_(const char* trans, const int* m, const int* n, const float* alpha, const float* a, const int* lda,
            const float* x, const int* incx, const float* beta, float* y, const int* incy, std::size_t);
void dgemv_(const char* trans, const int* m, const int* n, const double* alpha, const double* a, const int* lda,
            const double* x, const int* incx, const double* beta, double* y, const int* incy, std::size_t);
}
#endif

namespace inplace::detail::texpr::blas {

#if INPLACE_HAS_BLAS

// How BLAS sees a matrix of extents (e0, e1) and strides (s0, s1) in column-major
// terms: its own memory as the transpose ('N' for row-major: the memory read
// column-major is the transpose) or as itself ('T'), and the leading dimension.
struct layout {
  char trans;
  int ld;
};
inline bool fits(std::size_t n) { return n <= static_cast<std::size_t>(INT_MAX); }
inline bool layout_of(std::size_t e0, std::size_t e1, std::ptrdiff_t s0, std::ptrdiff_t s1, layout& l) {
  const auto m0 = static_cast<std::ptrdiff_t>(e0 > 1 ? e0 : 1), m1 = static_cast<std::ptrdiff_t>(e1 > 1 ? e1 : 1);
  if ((s1 == 1 || e1 == 1) && (e0 == 1 ? true : s0 >= m1)) {  // row-major, leading dimension s0
    const std::ptrdiff_t ld = e0 == 1 ? m1 : s0;
    if (!fits(static_cast<std::size_t>(ld))) return false;
    l = {'N', static_cast<int>(ld)};
    return true;
  }
  if ((s0 == 1 || e0 == 1) && (e1 == 1 ? true : s1 >= m0)) {  // column-major, leading dimension s1
    const std::ptrdiff_t ld = e1 == 1 ? m0 : s1;
    if (!fits(static_cast<std::size_t>(ld))) return false;
    l = {'T', static_cast<int>(ld)};
    return true;
  }
  return false;
}

template <class V>
void gemm_call(char ta, char tb, int m, int n, int k, const V* a, int lda, const V* b, int ldb, V* c, int ldc) {
  const V one = 1, zero = 0;
  if constexpr (std::is_same_v<V, float>) sgemm_(&ta, &tb, &m, &n, &k, &one, a, &lda, b, &ldb, &zero, c, &ldc, 1, 1);
  else dgemm_(&ta, &tb, &m, &n, &k, &one, a, &lda, b, &ldb, &zero, c, &ldc, 1, 1);
}
template <class V>
void gemv_call(char t, int m, int n, const V* a, int lda, const V* x, int incx, V* y) {
  const V one = 1, zero = 0;
  const int incy = 1;
  if constexpr (std::is_same_v<V, float>) sgemv_(&t, &m, &n, &one, a, &lda, x, &incx, &zero, y, &incy, 1);
  else dgemv_(&t, &m, &n, &one, a, &lda, x, &incx, &zero, y, &incy, 1);
}

// c (m x n, row-major) = a (m x k) b (k x n) on the BLAS; false (nothing
// written) when a layout does not suit it. m, n, k > 0.
template <class V>
bool gemm(V* c, std::size_t m, std::size_t k, std::size_t n, const V* a, std::ptrdiff_t a0, std::ptrdiff_t a1,
          const V* b, std::ptrdiff_t b0, std::ptrdiff_t b1) {
  layout la{}, lb{};
  if (!fits(m) || !fits(n) || !fits(k) || !layout_of(m, k, a0, a1, la) || !layout_of(k, n, b0, b1, lb)) return false;
  // Row-major C is column-major C^T = B^T A^T: B first.
  gemm_call(lb.trans, la.trans, static_cast<int>(n), static_cast<int>(m), static_cast<int>(k), b, lb.ld, a, la.ld, c,
            static_cast<int>(n));
  return true;
}

// y (rows) = a (rows x k) x, x of stride xs > 0; false when the layout does not suit.
template <class V>
bool gemv(V* y, std::size_t rows, std::size_t k, const V* a, std::ptrdiff_t a0, std::ptrdiff_t a1, const V* x,
          std::ptrdiff_t xs) {
  layout la{};
  if (!fits(rows) || !fits(k) || xs <= 0 || !fits(static_cast<std::size_t>(xs)) || !layout_of(rows, k, a0, a1, la))
    return false;
  // Row-major a read column-major is a^T (k x rows): 'T' gives a x; column-major a is a itself: 'N'.
  if (la.trans == 'N')
    gemv_call('T', static_cast<int>(k), static_cast<int>(rows), a, la.ld, x, static_cast<int>(xs), y);
  else
    gemv_call('N', static_cast<int>(rows), static_cast<int>(k), a, la.ld, x, static_cast<int>(xs), y);
  return true;
}

#endif  // INPLACE_HAS_BLAS

}  // namespace inplace::detail::texpr::blas
