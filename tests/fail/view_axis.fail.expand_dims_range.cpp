// ip::expand_dims<3>(x) on a vector: a new axis goes at -2 .. 1.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: view_axis" in the first lines).
// expect: ip::expand_dims<Axis>: the axis is out of range
#include <inplace.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float> x(4);
#ifdef INPLACE_SHOULD_FAIL
  auto v = ip::expand_dims<3>(x);
#else
  auto v = ip::expand_dims<0>(x);
#endif
  return v.extent(1) == 4 ? 0 : 1;
}
