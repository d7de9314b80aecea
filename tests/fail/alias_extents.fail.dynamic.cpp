// ip::alias<U, ip::extents<...>> takes static extents only.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: alias_extents" in the first lines).
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float> x(16);
#ifdef INPLACE_SHOULD_FAIL
  auto v = ip::alias<float, ip::extents<ip::dynamic, 4>>(x);
#else
  auto v = ip::alias<float, ip::extents<4, 4>>(x);
#endif
  (void)v;
}
