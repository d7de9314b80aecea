// argmax gives an index along one axis (or in the flattened array), not two.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: reduce_axis" in the first lines).
// expect: argmax and argmin take one axis, or none
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float, 2> a(3, 4);
#ifdef INPLACE_SHOULD_FAIL
  auto i = ip::argmax<0, 1>(a);
#else
  auto i = ip::argmax<0, ip::keepdims>(a);
#endif
  (void)i;
}
