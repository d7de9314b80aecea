// ip::squeeze<2>(a) on a matrix: there is no axis 2.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: view_axis" in the first lines).
// expect: ip::squeeze<Axis>: the axis is out of range
#include <inplace.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float, 2> a(1, 4);
#ifdef INPLACE_SHOULD_FAIL
  auto v = ip::squeeze<2>(a);
#else
  auto v = ip::squeeze<0>(a);
#endif
  return v.extent(0) == 4 ? 0 : 1;
}
