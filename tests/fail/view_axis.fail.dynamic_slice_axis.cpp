// A dynamic slice of axis 2 of a matrix: there is no such axis.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: view_axis" in the first lines).
// expect: ip::dynamic_slice<Axis, Size>: the axis is out of range
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float, 2> a(3, 4);
#ifdef INPLACE_SHOULD_FAIL
  auto v = ip::dynamic_slice<2, 1>(a, 0);
#else
  auto v = ip::dynamic_slice<1, 1>(a, 0);
#endif
  (void)v;
}
