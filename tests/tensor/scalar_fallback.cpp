// The evaluator without xsimd: every loop is the compiler-vectorised scalar
// loop (INPLACE_IVDEP). Same results as with SIMD batches.
#define INPLACE_NO_XSIMD 1
#include "naive.hpp"

#include <cmath>
#include <vector>

namespace ip = inplace;

TEST_CASE("without xsimd: chains, transcendental ops, aliasing", "[expr][fallback]") {
  STATIC_REQUIRE(INPLACE_HAS_XSIMD == 0);
  const int n = 1003;
  ip::tensor<float> x(n), y(n), z(n), want(n);
  naive::fill(x, 0, 1, 1);
  naive::fill(y, 0, 1, 2);
  naive::fill(z, 0, 1, 3);
  for (int i = 0; i < n; ++i) want(i) = std::exp(x(i)) * y(i) + std::sqrt(z(i));
  x = ip::exp(x) * y + ip::sqrt(z);
  for (int i = 0; i < n; ++i) CHECK(naive::close(x(i), want(i)));
  ip::tensor<float> s{0, 1, 2, 3, 4};
  ip::slice<1>(s) = ip::slice<0, -1>(s);
  CHECK(std::vector<float>(s.begin(), s.end()) == std::vector<float>{0, 0, 1, 2, 3});
}
