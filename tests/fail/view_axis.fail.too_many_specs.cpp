// ip::view(a, 1, 2, 3) on a matrix: three indices for two axes.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: view_axis" in the first lines).
// expect: ip::view: more ranges and indices than the view has axes
#include <inplace.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float, 2> a(3, 4);
#ifdef INPLACE_SHOULD_FAIL
  auto v = ip::view(a, 1, 2, 3);
#else
  auto v = ip::view(a, 1, 2);
#endif
  return static_cast<int>(v);
}
