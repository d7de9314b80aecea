// ip::broadcast_to<ip::dynamic, 4>(x): compile-time extents must be known;
// run-time ones go as arguments.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: view_extents" in the first lines).
#include <inplace.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float> x(4);
#ifdef INPLACE_SHOULD_FAIL
  auto v = ip::broadcast_to<ip::dynamic, 4>(x);
#else
  auto v = ip::broadcast_to(x, 3, 4);
#endif
  (void)v;
  return x.size() == 4 ? 0 : 1;
}
