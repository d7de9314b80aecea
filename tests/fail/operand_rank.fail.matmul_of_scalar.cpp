// matmul multiplies vectors, matrices and batches of them; NumPy's matmul
// refuses a scalar operand too: multiplying by a scalar is a * b.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: operand_rank" in the first lines).
// expect: matmul: each operand must have rank 1 or more
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float, 3> t(2, 2, 2);
  ip::tensor<float, 0> s;
  (void)s;
#ifdef INPLACE_SHOULD_FAIL
  auto r = ip::matmul(s, t);
#else
  auto r = ip::matmul(ip::tensor<float>(2), t);
#endif
  (void)r;
}
