// ip::broadcast_to(a, 4) of a matrix: fewer extents than the view has axes.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: view_axis" in the first lines).
// expect: ip::broadcast_to: the view has more axes than the extents given
#include <inplace.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float, 2> a(1, 4);
#ifdef INPLACE_SHOULD_FAIL
  auto v = ip::broadcast_to(a, 4);
#else
  auto v = ip::broadcast_to(a, 3, 4);
#endif
  (void)v;
  return a.size() == 4 ? 0 : 1;
}
