// A consumer with INPLACE_BLAS on: dot runs on the BLAS (sgemm here).
#include <inplace.hpp>

static_assert(INPLACE_HAS_BLAS == 1, "INPLACE_BLAS defines INPLACE_USE_BLAS for the consumer");

int main() {
  namespace ip = inplace;
  ip::tensor<float, 2> a{{1, 2}, {3, 4}}, b{{5, 6}, {7, 8}};
  const auto c = ip::dot(a, b);  // NumPy: [[19, 22], [43, 50]]
  return c(0, 0) == 19 && c(0, 1) == 22 && c(1, 0) == 43 && c(1, 1) == 50 ? 0 : 1;
}
