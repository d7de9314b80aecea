// ip::range<0, ip::end, 0>: a slice with step 0 takes nothing.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: slice_step" in the first lines).
// expect: ip::range<B, E, S>: the step S must not be 0
#include <inplace.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float, 2> a(3, 4);
#ifdef INPLACE_SHOULD_FAIL
  auto v = ip::view(a, ip::all, ip::range<0, ip::end, 0>);
#else
  auto v = ip::view(a, ip::all, ip::range<0, ip::end, 2>);
#endif
  return v.extent(1) == 2 ? 0 : 1;
}
