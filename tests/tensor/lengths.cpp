// The contiguous loop runs four SIMD batches per step, then single batches, then
// scalars: every length from 0 to 3 * 4 batches (and a few large ones) must give
// the naive loop's result, in place, for float and double.
#include "naive.hpp"

#include <cmath>
#include <vector>

namespace ip = inplace;

TEMPLATE_TEST_CASE("in-place chains at every length around the SIMD steps", "[expr][lengths]", float, double) {
  using T = TestType;
  std::vector<int> lengths;
  for (int k = 0; k <= 200; ++k) lengths.push_back(k);
  for (int k : {255, 256, 257, 1000, 1023, 1024, 1025, 4099}) lengths.push_back(k);
  for (int len : lengths) {
    ip::tensor<T> x(len), y(len), z(len);
    naive::fill(x, 0, 1, 21);
    naive::fill(y, 0, 1, 22);
    naive::fill(z, 0, 1, 23);
    std::vector<T> want(static_cast<std::size_t>(len)), want2(want);
    for (int i = 0; i < len; ++i) want[i] = T(0.5) * x(i) + y(i);
    for (int i = 0; i < len; ++i) want2[i] = std::exp(want[i]) * y(i) + std::sqrt(z(i));
    x = T(0.5) * x + y;
    bool ok = true;
    for (int i = 0; i < len; ++i) ok = ok && naive::close(x(i), want[i]);
    x = ip::exp(x) * y + ip::sqrt(z);
    for (int i = 0; i < len; ++i) ok = ok && naive::close(x(i), want2[i]);
    INFO("length " << len);
    CHECK(ok);
  }
}

TEST_CASE("an unaligned destination and operands (views from element 1)", "[expr][lengths]") {
  for (int len : {0, 1, 15, 16, 17, 63, 64, 65, 129}) {
    ip::tensor<float> x(len + 1), y(len + 1);
    naive::fill(x, 0, 1, 31);
    naive::fill(y, 0, 1, 32);
    std::vector<float> want(x.begin(), x.end());
    for (int i = 1; i <= len; ++i) want[i] = x(i) * 3.0f - y(i);
    ip::slice<1>(x) = ip::slice<1>(x) * 3.0f - ip::slice<1>(y);
    CHECK(std::vector<float>(x.begin(), x.end()) == want);
  }
}
