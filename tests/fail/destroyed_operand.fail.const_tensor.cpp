// An in-place op on tensors overwrites its operand: not a const tensor.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: destroyed_operand" in the first lines).
// expect: it must not be const
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  const ip::tensor<float> c{1, 2};
  ip::tensor<float> y{3, 4};
#ifdef INPLACE_SHOULD_FAIL
  ip::add_inplace(c, y);
#else
  ip::add(c, y);
#endif
}
