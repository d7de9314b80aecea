// A matrix has axes 0 and 1 (or -2 and -1).
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: reduce_axis" in the first lines).
// expect: reduce_sum<Axis>: Axis must be an axis of the operand
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float, 2> m(2, 3);
#ifdef INPLACE_SHOULD_FAIL
  auto r = ip::reduce_sum<2>(m);
#else
  auto r = ip::reduce_sum<1>(m);
#endif
  (void)r;
}
