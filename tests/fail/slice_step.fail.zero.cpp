// A slice step of 0 walks nowhere.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: slice_step" in the first lines).
// expect: ip::slice<B, E, S>: the step S must not be 0
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float> x{1, 2, 3, 4};
#ifdef INPLACE_SHOULD_FAIL
  auto v = ip::slice<0, ip::end, 0>(x);
#else
  auto v = ip::slice<0, ip::end, 2>(x);
#endif
  (void)v;
}
