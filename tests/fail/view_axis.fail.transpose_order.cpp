// ip::transpose<0, 0>(a): the order names axis 0 twice and axis 1 never.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: view_axis" in the first lines).
// expect: ip::transpose<P...>: P is not a permutation
#include <inplace.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float, 2> a(3, 4);
#ifdef INPLACE_SHOULD_FAIL
  auto v = ip::transpose<0, 0>(a);
#else
  auto v = ip::transpose<1, 0>(a);
#endif
  return v.extent(0) == 4 ? 0 : 1;
}
