// np.stack of two matrices has three axes: a new axis 3 is out of range
// (-3 .. 2), on tensors as in graphs.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: concat_shapes" in the first lines).
// expect: ip::stack<Axis> takes operands of one rank and Axis in
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  const ip::tensor<float, 2> a{{1, 2}, {3, 4}};
#ifdef INPLACE_SHOULD_FAIL
  (void)ip::stack<3>(a, a);
#else
  (void)ip::stack<2>(a, a);
#endif
}
