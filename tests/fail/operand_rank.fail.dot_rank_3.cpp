// dot multiplies vectors and matrices.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: operand_rank" in the first lines).
// expect: dot: each operand must have rank 1
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float, 3> t(2, 2, 2);
  ip::tensor<float> v{1, 2};
  (void)t;
#ifdef INPLACE_SHOULD_FAIL
  auto r = ip::dot(t, v);
#else
  auto r = ip::dot(ip::tensor<float, 2>(2, 2), v);
#endif
  (void)r;
}
