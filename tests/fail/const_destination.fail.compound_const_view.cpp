// x += e writes x: not a view of const.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: const_destination" in the first lines).
// expect: a compound assignment (+=
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float> x{1, 2}, y{3, 4};
  ip::tensor_view<const float, 1> c = x.view();
  (void)c;
#ifdef INPLACE_SHOULD_FAIL
  c += y;
#else
  x += y;
#endif
}
