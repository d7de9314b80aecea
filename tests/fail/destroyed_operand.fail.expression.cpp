// An in-place op on tensors overwrites a tensor, not an expression.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: destroyed_operand" in the first lines).
// expect: computes in the storage of its destroyed operand
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float> x{1, 2}, y{3, 4};
#ifdef INPLACE_SHOULD_FAIL
  ip::add_inplace(x + y, x);
#else
  ip::add_inplace(x, y);
#endif
}
