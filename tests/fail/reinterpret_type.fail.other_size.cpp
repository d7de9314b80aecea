// On tensors: ip::reinterpret<U> keeps extents, so U has the element's size.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: reinterpret_type" in the first lines).
// expect: so U must have the
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float> x{1, 2, 3, 4};
#ifdef INPLACE_SHOULD_FAIL
  auto v = ip::reinterpret<double>(x);
#else
  auto v = ip::reinterpret<int>(x);
#endif
  (void)v;
}
