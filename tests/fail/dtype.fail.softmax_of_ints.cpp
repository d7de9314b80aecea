// softmax on tensors needs floating-point elements.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: dtype" in the first lines).
// expect: softmax: the operand must have a floating-point
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<int> i{1, 2, 3};
#ifdef INPLACE_SHOULD_FAIL
  auto s = ip::softmax(i);
#else
  ip::tensor<float> x{1, 2, 3};
  auto s = ip::softmax(x);
#endif
  (void)s;
}
